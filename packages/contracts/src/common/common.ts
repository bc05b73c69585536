import { z } from 'zod';

/** CMA limits shared by every resource. */
export const LIMITS = {
  nameMax: 256,
  descriptionMax: 2048,
  systemMax: 100_000,
  metadataKeys: 16,
  metadataKeyMax: 64,
  metadataValueMax: 512,
  listLimitMax: 1000,
  listLimitDefault: 20,
  toolsMax: 256,
  mcpServersMax: 20,
} as const;

export const IsoDateTimeSchema = z.iso.datetime({ offset: true });

const metadataKey = z
  .string()
  .min(1)
  .max(LIMITS.metadataKeyMax, `metadata keys may be at most ${LIMITS.metadataKeyMax} characters`);
const metadataValue = z
  .string()
  .max(LIMITS.metadataValueMax, `metadata values may be at most ${LIMITS.metadataValueMax} characters`);
const tooManyKeys = `metadata may hold at most ${LIMITS.metadataKeys} keys`;

/** A full metadata map (create requests and returned objects). */
export const MetadataSchema = z
  .record(metadataKey, metadataValue)
  .refine((m) => Object.keys(m).length <= LIMITS.metadataKeys, tooManyKeys);
export type Metadata = z.infer<typeof MetadataSchema>;

/** A metadata patch: a string upserts a key, null deletes it. */
export const MetadataPatchSchema = z
  .record(metadataKey, metadataValue.nullable())
  .refine((m) => Object.keys(m).length <= LIMITS.metadataKeys, tooManyKeys);
export type MetadataPatch = z.infer<typeof MetadataPatchSchema>;

/** Applies a metadata patch; fails when the result would exceed the key limit. */
export function applyMetadataPatch(current: Metadata, patch: MetadataPatch | null | undefined): Metadata {
  if (patch === undefined) return current;
  if (patch === null) return {};
  const next: Metadata = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** Query booleans arrive as strings; `"false"` must stay false. */
export const QueryBooleanSchema = z.union([z.boolean(), z.stringbool()]);

/** Query-string arrays arrive as `types[]=a&types[]=b` (parsed to an array) or as one value. */
export function queryArraySchema<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item));
}

const SortOrderSchema = z.enum(['asc', 'desc']);

/** `?limit=&page=&order=` shared by every list endpoint. */
export const ListParamsSchema = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.listLimitMax).default(LIMITS.listLimitDefault),
  page: z.string().min(1).nullish(),
  order: SortOrderSchema.optional(),
  include_archived: QueryBooleanSchema.optional(),
});
export type ListParams = z.infer<typeof ListParamsSchema>;

export const NameSchema = z
  .string()
  .min(1, 'name must not be empty')
  .max(LIMITS.nameMax, `name may be at most ${LIMITS.nameMax} characters`);
export const DescriptionSchema = z
  .string()
  .max(LIMITS.descriptionMax, `description may be at most ${LIMITS.descriptionMax} characters`);
