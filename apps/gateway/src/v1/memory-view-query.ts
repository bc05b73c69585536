import { MemoryViewSchema } from '@agentry/contracts/v1';
import { z } from 'zod';

/** `?view=basic|full` of memory and memory-version endpoints. */
export const ViewQuerySchema = z.object({ view: MemoryViewSchema.optional() });
