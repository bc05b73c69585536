// The /api surface (AgentScope compatible): its schemas and the mappings to and from /v1.
export * from './agents/api-agents.js';
export * from './agents/api-agent-mapping.js';
export * from './agents/api-tool-names.js';
export * from './agents/api-team-tools.js';
export * from './agents/api-agent-workspace.js';
export * from './environments/api-environments.js';
export * from './sessions/api-sessions.js';
export * from './session-events/api-events.js';
export * from './memory-stores/api-memories.js';
export * from './vaults/api-vault-credentials.js';
export * from './files/api-files.js';
export * from './deployments/api-deployments.js';
export * from './multiagent-runs/api-multiagent-runs.js';
export * from './replays/api-replays.js';
export * from './tenancy/api-auth.js';
export * from './work/api-worker.js';
