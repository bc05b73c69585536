import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { PrismaClient, User } from '@agentry/db';

@Injectable()
export class UsersRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  findByUsername(username: string): Promise<User | null> {
    return this.db.user.findUnique({ where: { username: username.toLowerCase() } });
  }

  findById(id: string): Promise<User | null> {
    return this.db.user.findUnique({ where: { id } });
  }
}
