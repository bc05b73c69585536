import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlStoreSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { FilesService } from './files.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class FilesHandler {
  constructor(private readonly files: FilesService) {}

  @RpcHandler(S.uploadFile)
  uploadFile(@RpcBody(S.uploadFile) req: RpcParsedRequest<typeof S.uploadFile>) {
    return this.files.upload(req.actor, req.body);
  }

  @RpcHandler(S.getFile)
  getFile(@RpcBody(S.getFile) req: RpcParsedRequest<typeof S.getFile>) {
    return this.files.get(req.actor, req.id);
  }

  @RpcHandler(S.listFiles)
  listFiles(@RpcBody(S.listFiles) req: RpcParsedRequest<typeof S.listFiles>) {
    return this.files.list(req.actor, req.query);
  }

  @RpcHandler(S.downloadFile)
  downloadFile(@RpcBody(S.downloadFile) req: RpcParsedRequest<typeof S.downloadFile>) {
    return this.files.download(req.actor, req.id);
  }

  @RpcHandler(S.deleteFile)
  deleteFile(@RpcBody(S.deleteFile) req: RpcParsedRequest<typeof S.deleteFile>) {
    return this.files.delete(req.actor, req.id);
  }
}
