import { metrics, type Attributes } from '@opentelemetry/api';

export interface GaugeReading {
  value: number;
  attributes?: Attributes;
}

/**
 * An observable gauge read when a scrape or an export collects. `read` may query a store; a failure
 * reports nothing for that collection instead of breaking the scrape.
 */
export function observeGauge(
  name: string,
  description: string,
  read: () => Promise<GaugeReading[]> | GaugeReading[],
): void {
  const gauge = metrics.getMeter('agentry').createObservableGauge(name, { description });
  gauge.addCallback(async (result) => {
    try {
      for (const reading of await read()) result.observe(reading.value, reading.attributes);
    } catch {
      // the next collection tries again; a broken store shows in readiness, not as a failed scrape
    }
  });
}
