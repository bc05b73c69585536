import { z } from 'zod';

/** Content blocks carried by session events (CMA shapes). */
export const TextBlockSchema = z.strictObject({ type: z.literal('text'), text: z.string() });

const Base64SourceSchema = z.strictObject({
  type: z.literal('base64'),
  media_type: z.string().min(1),
  data: z.string().min(1),
});
const UrlSourceSchema = z.strictObject({ type: z.literal('url'), url: z.url() });
const FileSourceSchema = z.strictObject({ type: z.literal('file'), file_id: z.string().min(1) });
const PlainTextSourceSchema = z.strictObject({
  type: z.literal('text'),
  media_type: z.literal('text/plain'),
  data: z.string(),
});

// The SDK's tool runner forwards Messages-API image/document blocks as they are, so their
// `cache_control` (and a document's `citations`) must be tolerated; they carry no meaning here.
const MessagesApiExtras = { cache_control: z.unknown().optional() };

const ImageBlockSchema = z.strictObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [Base64SourceSchema, UrlSourceSchema, FileSourceSchema]),
  ...MessagesApiExtras,
});

const DocumentBlockSchema = z.strictObject({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    Base64SourceSchema,
    PlainTextSourceSchema,
    UrlSourceSchema,
    FileSourceSchema,
  ]),
  context: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  citations: z.unknown().optional(),
  ...MessagesApiExtras,
});

/** Stands in for content withheld from the reader. */
const RedactedBlockSchema = z.strictObject({ type: z.literal('redacted') });

const SearchResultBlockSchema = z.strictObject({
  type: z.literal('search_result'),
  source: z.string(),
  title: z.string(),
  content: z.array(TextBlockSchema),
  citations: z.strictObject({ enabled: z.boolean() }),
});

/** What a user may put in a `user.message`. */
export const UserContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ImageBlockSchema,
  DocumentBlockSchema,
]);

/** What an agent message may contain. */
export const AgentContentBlockSchema = z.discriminatedUnion('type', [TextBlockSchema, RedactedBlockSchema]);

/** What a tool result may contain. */
export const ToolResultContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ImageBlockSchema,
  DocumentBlockSchema,
  SearchResultBlockSchema,
]);
