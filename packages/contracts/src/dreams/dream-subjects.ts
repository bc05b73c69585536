import { entitySubjects } from '../nats/entity-subjects.js';
import { CreateDreamRequestSchema, DreamSchema, ListDreamsParamsSchema } from './dreams.js';

const dream = entitySubjects('control.dream', DreamSchema);

/** Request/reply subjects of the control service for dreams. */
export const DreamSubjects = {
  createDream: dream.create(CreateDreamRequestSchema),
  getDream: dream.get(),
  listDreams: dream.list(ListDreamsParamsSchema),
  archiveDream: dream.onItem('archive'),
  cancelDream: dream.onItem('cancel'),
} as const;
