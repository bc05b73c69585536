import { Controller, UseInterceptors } from '@nestjs/common';
import { HandsSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler, startChildSpan, withSpan } from '@agentry/platform';
import { HandsExecService } from './hands-exec.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class HandsHandler {
  constructor(private readonly hands: HandsExecService) {}

  @RpcHandler(S.exec)
  async exec(@RpcBody(S.exec) req: RpcParsedRequest<typeof S.exec>) {
    const span = startChildSpan(`execute_tool ${req.name}`, 'internal', {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': req.name,
      'gen_ai.tool.call.id': req.toolUseId,
      'agentry.environment.type': req.environmentType,
    });
    try {
      const result = await withSpan(span, () => this.hands.execute(req));
      if (result.isError) span.setAttribute('error.type', result.reason ?? 'tool_error');
      return result;
    } finally {
      span.end();
    }
  }
}
