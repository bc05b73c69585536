import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { DreamsService } from './dreams.service.js';

@Controller()
export class DreamsHandler {
  constructor(private readonly dreams: DreamsService) {}

  @RpcHandler(S.createDream)
  create(req: RpcParsedRequest<typeof S.createDream>) {
    return this.dreams.create(req.actor, req.body);
  }

  @RpcHandler(S.getDream)
  get(req: RpcParsedRequest<typeof S.getDream>) {
    return this.dreams.get(req.actor, req.id);
  }

  @RpcHandler(S.listDreams)
  list(req: RpcParsedRequest<typeof S.listDreams>) {
    return this.dreams.list(req.actor, req.query);
  }

  @RpcHandler(S.archiveDream)
  archive(req: RpcParsedRequest<typeof S.archiveDream>) {
    return this.dreams.archive(req.actor, req.id);
  }

  @RpcHandler(S.cancelDream)
  cancel(req: RpcParsedRequest<typeof S.cancelDream>) {
    return this.dreams.cancel(req.actor, req.id);
  }
}
