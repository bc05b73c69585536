import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'agentry:public';

/** Routes reachable without credentials (login, health, docs); auth guards skip them. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
