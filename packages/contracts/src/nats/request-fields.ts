import { ActorSchema } from './actor.js';
import { V1 } from './subject.js';

// Shared by the entity catalogs, and kept out of the barrels: they are pieces of request schemas.
/** The fields of every control request: the schema version and who is asking. */
export const Scoped = { v: V1, actor: ActorSchema };
