import { Inject, Injectable } from '@nestjs/common';
import {
  AGENT_DEFINITION_ENTRIES,
  SESSION_MOUNT_PATHS,
  SessionResourceSubjects,
  sessionArtefactsRoot,
  type SessionAgent,
  type SessionMount,
} from '@agentry/contracts';
import { LARGE_TOOL_RESULTS_DIR, DEFAULT_PLAN_DIR, type FileMount, type SkillSource } from '@agentry/harness';
import { LOGGER, MountContentClient, RpcClient, type Logger } from '@agentry/platform';
import { agentWorkspaceRoot, openMountTree, PostgresWorkspaceFs, type WorkspaceFs } from '@agentry/workspace';
import { SqlPool } from '../sql/sql-pool.js';
import { resourceMounts, type ResourceMounts, type SessionMemoryStore } from './resource-mounts.js';

/** What one turn of a session mounts, and the Brain-side handles on the same trees. */
export interface SessionMountPlan {
  /** Sent with every Hands call: the worker mirrors these at /mnt in the session's sandbox. */
  mounts: SessionMount[];
  /** The session's own artefacts store (evicted tool outputs, plans), never shared with other sessions. */
  artefacts: WorkspaceFs;
  /** Attached `/v1` skills as a skill source for the index, shown at their mount path. */
  attachedSkills: SkillSource | null;
  /** The same trees as the file tools running in the Brain (`remote`) see them at /mnt. */
  fileMounts: () => Promise<FileMount[]>;
  /** What the system prompt says of the mounted resources (memory stores: where, whether writable, instructions). */
  promptNotes: string[];
  /** The session's memory stores, for the memory tools. */
  memoryStores: SessionMemoryStore[];
}

const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Skill versions never change, so what was read of one is kept (up to this many versions). */
const SKILL_CACHE_ENTRIES = 256;

/**
 * Decides what the Brain shows a session under /mnt (docs/mounts.md): the agent's definition
 * files, the `/v1` skills attached to it at their pinned version, the session's own evicted tool
 * outputs and plans, and its `resources[]` files and memory stores. Every tree is read-only to the
 * session, except a memory store mounted `read_write` (written back to the store by the Hands).
 */
const NO_RESOURCES: ResourceMounts = { mounts: [], promptNotes: [], memoryStores: [], skipped: [] };

@Injectable()
export class SessionMountPlanner {
  private readonly skillFiles = new Map<string, Promise<WorkspaceFs>>();
  private readonly skillNames = new Map<string, string>();
  private readonly content: MountContentClient;

  constructor(
    private readonly sql: SqlPool,
    private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.content = new MountContentClient(rpc);
  }

  /**
   * `writableMounts`: whether the session's Hands can write a mount back (a cluster worker's sandbox).
   * `hasResources`: whether the session lists resources at all; most do not, and their turns skip asking
   * control for them. `resourcesOf`: the session whose `resources[]` are mounted, when not `sessionId` (a
   * thread mounts its session's; its evicted outputs and plans stay its own).
   */
  async plan(context: {
    tenantId: string;
    sessionId: string;
    resourcesOf?: string;
    agent: SessionAgent;
    writableMounts?: boolean;
    hasResources?: boolean;
  }): Promise<SessionMountPlan> {
    const { tenantId, sessionId, agent } = context;
    const artefactsRoot = sessionArtefactsRoot(tenantId, sessionId);
    const skills = await this.attachedSkills(tenantId, agent);
    const resources =
      context.hasResources === false
        ? NO_RESOURCES
        : await this.resources(tenantId, context.resourcesOf ?? sessionId, context.writableMounts ?? true);
    const mounts: SessionMount[] = [
      {
        path: SESSION_MOUNT_PATHS.agent,
        source: {
          type: 'workspace',
          root: agentWorkspaceRoot(tenantId, agent.id),
          include: [...AGENT_DEFINITION_ENTRIES],
        },
      },
      ...skills,
      {
        path: SESSION_MOUNT_PATHS.toolResults,
        source: { type: 'workspace', root: artefactsRoot, dir: LARGE_TOOL_RESULTS_DIR },
      },
      {
        path: SESSION_MOUNT_PATHS.plans,
        source: { type: 'workspace', root: artefactsRoot, dir: DEFAULT_PLAN_DIR },
      },
      ...resources.mounts,
    ];
    if (this.skillFiles.size > SKILL_CACHE_ENTRIES) this.skillFiles.clear();
    const deps = { sql: this.sql.pool, content: this.content, tenantId, skillCache: this.skillFiles };
    // The skills alone as one tree, each skill a top-level folder (its name), for the skill index and loader.
    const skillsTree =
      skills.length > 0
        ? await openMountTree(
            skills.map((m) => ({
              ...m,
              path: `/mnt/${m.path.slice(SESSION_MOUNT_PATHS.skills.length + 1)}`,
            })),
            deps,
          )
        : null;
    return {
      mounts,
      artefacts: new PostgresWorkspaceFs({
        sql: this.sql.pool,
        table: 'workspace_files',
        tenantId,
        root: artefactsRoot,
      }),
      attachedSkills: skillsTree
        ? { layer: 'repository', fs: skillsTree, root: '', shownAt: SESSION_MOUNT_PATHS.skills }
        : null,
      fileMounts: async () => [{ path: '/mnt', fs: await openMountTree(mounts, deps) }],
      promptNotes: resources.promptNotes,
      memoryStores: resources.memoryStores,
    };
  }

  /** The session's `resources[]` as mounts; a failure to read them leaves them out of this turn (logged). */
  private async resources(tenantId: string, sessionId: string, writable: boolean): Promise<ResourceMounts> {
    try {
      const { resources } = await this.rpc.request(SessionResourceSubjects.resolve, { tenantId, sessionId });
      const planned = resourceMounts(resources, { writable });
      for (const skip of planned.skipped)
        this.logger.warn(
          { sessionId, resource: skip.id, mountPath: skip.mountPath, why: skip.why },
          'session resource not mounted',
        );
      return planned;
    } catch (err) {
      this.logger.error(
        { sessionId, err },
        'session resources could not be read; none are mounted this turn',
      );
      return NO_RESOURCES;
    }
  }

  /** One mount per attached custom skill, at `/mnt/skills/<name>`; a skill that no longer resolves is left out. */
  private async attachedSkills(tenantId: string, agent: SessionAgent): Promise<SessionMount[]> {
    const mounts = new Map<string, SessionMount>();
    for (const ref of agent.skills) {
      if (ref.type !== 'custom') continue;
      const found = await this.skillName(tenantId, ref.skill_id, ref.version);
      if (found === null) {
        this.logger.warn(
          { agentId: agent.id, skillId: ref.skill_id, version: ref.version },
          'attached skill not found; not mounted',
        );
        continue;
      }
      const { name, version } = found;
      if (!mounts.has(name))
        mounts.set(name, {
          path: `${SESSION_MOUNT_PATHS.skills}/${name}`,
          source: { type: 'skill_version', skillId: ref.skill_id, version },
        });
    }
    return [...mounts.values()];
  }

  /**
   * The version a skill reference names (a number, or `latest`: the skill's head now) and its folder name:
   * its declared name, or its id when the name cannot be a path segment. Null when there is no such version.
   */
  private async skillName(
    tenantId: string,
    skillId: string,
    ref: string,
  ): Promise<{ name: string; version: number } | null> {
    const pinned = /^\d+$/.test(ref) ? `${tenantId}/${skillId}@${ref}` : null;
    const known = pinned ? this.skillNames.get(pinned) : undefined;
    if (known) return { name: known, version: Number(ref) };
    const row = await this.content.skillVersion(tenantId, skillId, ref);
    if (!row) return null;
    const declared = row.front_matter?.name;
    const name = typeof declared === 'string' && SKILL_NAME.test(declared) ? declared : skillId;
    if (this.skillNames.size > SKILL_CACHE_ENTRIES) this.skillNames.clear();
    this.skillNames.set(`${tenantId}/${skillId}@${row.version}`, name);
    return { name, version: row.version };
  }
}
