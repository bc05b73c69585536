import { randomInt } from 'node:crypto';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * The random choices of a fault schedule (when a fault strikes, which replica it hits, which client drops
 * its stream), all drawn from one seed. `CHAOS_SEED` replays a run's schedule; without it a new seed is
 * drawn. The seed is printed when the schedule is made, so a failing run's output names the seed that
 * reproduces it.
 */
export class ChaosSchedule {
  readonly seed: number;
  private readonly rng: ReturnType<typeof xoroshiro128plus>;

  constructor(label: string, env: NodeJS.ProcessEnv = process.env) {
    const given = env.CHAOS_SEED?.trim() ? Number(env.CHAOS_SEED) : Number.NaN;
    this.seed = Number.isSafeInteger(given) ? given : randomInt(2 ** 31 - 1);
    this.rng = xoroshiro128plus(this.seed);
    console.log(`${label}: chaos seed ${this.seed} (replay with CHAOS_SEED=${this.seed})`);
  }

  /** An integer from 0 to `max - 1` (0 when `max` is 1 or less). */
  below(max: number): number {
    return max <= 1 ? 0 : uniformInt(this.rng, 0, Math.floor(max) - 1);
  }

  /** One of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.below(1_000_000) < p * 1_000_000;
  }
}
