import { Module } from '@nestjs/common';

/** The AgentScope-compatible `/api` surface: a translation layer over the same handlers. */
@Module({})
export class ApiModule {}
