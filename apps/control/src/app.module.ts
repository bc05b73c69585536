import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule } from '@agentry/platform';
import type { ControlEnv } from './config/env.js';
import { AgentsModule } from './agents/agents.module.js';
import { AuthModule } from './auth/auth.module.js';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { AuditModule } from './audit/audit.module.js';
import { TenancyModule } from './tenancy/tenancy.module.js';
import { UsersModule } from './users/users.module.js';
import { EnvironmentsModule } from './environments/environments.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { MemoryStoresModule } from './memory-stores/memory-stores.module.js';
import { DreamsModule } from './dreams/dreams.module.js';
import { VaultsModule } from './vaults/vaults.module.js';
import { DeploymentsModule } from './deployments/deployments.module.js';
import { FilesModule } from './files/files.module.js';
import { SkillsModule } from './skills/skills.module.js';
import { AgentWorkspaceModule } from './agent-workspace/agent-workspace.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { MountContentModule } from './mount-content/mount-content.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { WebhookEventsModule } from './webhook-events/webhook-events.module.js';
import { CONTROL_CONFIG } from './config/control-config.token.js';
import { ControlSql } from './common/control-sql.js';

@Module({})
export class AppModule {
  static forRoot(config: ControlEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ service: 'control', config, uses: { database: true, queue: true } }),
        AuthModule,
        WebhookEventsModule,
        AuditModule,
        UsersModule,
        ApiKeysModule,
        TenancyModule,
        AgentsModule,
        EnvironmentsModule,
        SessionsModule,
        VaultsModule,
        MemoryStoresModule,
        DreamsModule,
        DeploymentsModule,
        FilesModule,
        SkillsModule,
        AgentWorkspaceModule,
        RetentionModule,
        MountContentModule,
        WebhooksModule,
      ],
      providers: [{ provide: CONTROL_CONFIG, useValue: config }, ControlSql],
      exports: [CONTROL_CONFIG, ControlSql],
      global: true,
    };
  }
}
