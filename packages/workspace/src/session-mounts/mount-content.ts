/** A stored skill version: SKILL.md, its front matter and its other files (base64). */
export interface SkillVersionRow {
  version: number;
  content: string;
  front_matter: { name?: unknown; description?: unknown } | null;
  files: Record<string, { content: string }> | null;
}

/**
 * Where the content of mounted files, memory stores and skill versions comes from: the service that owns
 * them (control), through a port its callers inject, so this library never reads another service's tables.
 */
export interface MountContentReader {
  /** An uploaded file's bytes; null once it is deleted. */
  file(tenantId: string, fileId: string): Promise<Uint8Array | null>;
  /** A memory store's live memories, by path. */
  memories(tenantId: string, storeId: string): Promise<Array<{ path: string; content: string }>>;
  /** A skill version by number or `latest`; null when there is none. */
  skillVersion(tenantId: string, skillId: string, ref: string): Promise<SkillVersionRow | null>;
}
