import type { RouteEntry } from './route-entry.js';
import { API_ADMIN_ROUTES } from './routes/api-admin.routes.js';
import { API_AGENTS_ROUTES } from './routes/api-agents.routes.js';
import { API_AUTH_ROUTES } from './routes/api-auth.routes.js';
import { API_DEPLOYMENTS_ROUTES } from './routes/api-deployments.routes.js';
import { API_ENVIRONMENTS_ROUTES } from './routes/api-environments.routes.js';
import { API_FILES_ROUTES } from './routes/api-files.routes.js';
import { API_HANDS_ROUTES } from './routes/api-hands.routes.js';
import { API_KEYS_ROUTES } from './routes/api-keys.routes.js';
import { API_MEMORY_STORES_ROUTES } from './routes/api-memory-stores.routes.js';
import { API_MULTIAGENT_ROUTES } from './routes/api-multiagent.routes.js';
import { API_NAMESPACES_ROUTES } from './routes/api-namespaces.routes.js';
import { API_SESSIONS_ROUTES } from './routes/api-sessions.routes.js';
import { API_REPLAYS_ROUTES } from './routes/api-replays.routes.js';
import { API_VAULTS_ROUTES } from './routes/api-vaults.routes.js';
import { API_WEBHOOKS_ROUTES } from './routes/api-webhooks.routes.js';
import { PLATFORM_ROUTES } from './routes/platform.routes.js';
import { V1_AGENTS_ROUTES } from './routes/v1-agents.routes.js';
import { V1_DEPLOYMENT_RUNS_ROUTES } from './routes/v1-deployment-runs.routes.js';
import { V1_DEPLOYMENTS_ROUTES } from './routes/v1-deployments.routes.js';
import { V1_DREAMS_ROUTES } from './routes/v1-dreams.routes.js';
import { V1_ENVIRONMENTS_ROUTES } from './routes/v1-environments.routes.js';
import { V1_FILES_ROUTES } from './routes/v1-files.routes.js';
import { V1_HANDS_ROUTES } from './routes/v1-hands.routes.js';
import { V1_MEMORY_STORES_ROUTES } from './routes/v1-memory-stores.routes.js';
import { V1_SESSIONS_ROUTES } from './routes/v1-sessions.routes.js';
import { V1_REPLAYS_ROUTES } from './routes/v1-replays.routes.js';
import { V1_SKILLS_ROUTES } from './routes/v1-skills.routes.js';
import { V1_TENANTS_ROUTES } from './routes/v1-tenants.routes.js';
import { V1_USAGE_ROUTES } from './routes/v1-usage.routes.js';
import { V1_VAULTS_ROUTES } from './routes/v1-vaults.routes.js';
import { V1_WEBHOOKS_ROUTES } from './routes/v1-webhooks.routes.js';

/**
 * Every operation the gateway serves, by resource. A new route is one entry in its resource's file; the
 * route-table test fails while the table and the routes the server registers differ.
 */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  ...API_ADMIN_ROUTES,
  ...API_AGENTS_ROUTES,
  ...API_AUTH_ROUTES,
  ...API_DEPLOYMENTS_ROUTES,
  ...API_ENVIRONMENTS_ROUTES,
  ...API_FILES_ROUTES,
  ...API_HANDS_ROUTES,
  ...API_KEYS_ROUTES,
  ...API_MEMORY_STORES_ROUTES,
  ...API_MULTIAGENT_ROUTES,
  ...API_NAMESPACES_ROUTES,
  ...API_SESSIONS_ROUTES,
  ...API_REPLAYS_ROUTES,
  ...API_VAULTS_ROUTES,
  ...API_WEBHOOKS_ROUTES,
  ...PLATFORM_ROUTES,
  ...V1_AGENTS_ROUTES,
  ...V1_DEPLOYMENT_RUNS_ROUTES,
  ...V1_DEPLOYMENTS_ROUTES,
  ...V1_DREAMS_ROUTES,
  ...V1_ENVIRONMENTS_ROUTES,
  ...V1_FILES_ROUTES,
  ...V1_HANDS_ROUTES,
  ...V1_MEMORY_STORES_ROUTES,
  ...V1_SESSIONS_ROUTES,
  ...V1_REPLAYS_ROUTES,
  ...V1_SKILLS_ROUTES,
  ...V1_TENANTS_ROUTES,
  ...V1_USAGE_ROUTES,
  ...V1_VAULTS_ROUTES,
  ...V1_WEBHOOKS_ROUTES,
];
