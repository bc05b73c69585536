import { z } from 'zod';
import { IsoDateTimeSchema } from '../common/common.js';
import { Scoped } from '../nats/request-fields.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import {
  EnvironmentBuildLogSchema,
  EnvironmentBuildStatusSchema,
  FailedPackageSchema,
  PackageListsSchema,
} from './environment-build.js';
import { PackagesSchema } from './environments.js';

const EnvironmentTarget = { v: V1, tenantId: z.string().min(1), environmentId: z.string().min(1) };

/**
 * Internal: between the Hands and control about environment images. A worker reads what it must build
 * for an environment (`hands_config`) and reports how the build goes (`build_report`); not reachable from
 * any public route.
 */
export const EnvironmentBuildSubjects = {
  /** What a session's sandbox needs of its environment (asked by session: an MCP server may open it first). */
  handsConfig: rpcSubject(
    'control.environment.hands_config',
    z.object({ v: V1, tenantId: z.string().min(1), sessionId: z.string().min(1) }),
    z.object({
      environmentId: z.string(),
      packages: PackagesSchema.nullable(),
      allowPackageManagers: z.boolean(),
    }),
  ),
  report: rpcSubject(
    'control.environment.build_report',
    z.object({
      ...EnvironmentTarget,
      /** The package set the build is for. */
      packages: PackageListsSchema,
      status: EnvironmentBuildStatusSchema,
      startedAt: IsoDateTimeSchema,
      finishedAt: IsoDateTimeSchema.nullable(),
      error: z.object({ message: z.string(), package: FailedPackageSchema.nullable() }).nullable(),
      log: z.string(),
    }),
    z.object({ recorded: z.boolean() }),
  ),
  /** `GET /v1/environments/{id}/build/log`. */
  getLog: rpcSubject(
    'control.environment.build_log',
    z.object({ ...Scoped, id: z.string().min(1) }),
    EnvironmentBuildLogSchema,
  ),
} as const;
