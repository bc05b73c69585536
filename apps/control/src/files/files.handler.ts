import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { FilesService } from './files.service.js';

@Controller()
export class FilesHandler {
  constructor(private readonly files: FilesService) {}

  @RpcHandler(S.uploadFile)
  uploadFile(req: RpcParsedRequest<typeof S.uploadFile>) {
    return this.files.upload(req.actor, req.body);
  }

  @RpcHandler(S.getFile)
  getFile(req: RpcParsedRequest<typeof S.getFile>) {
    return this.files.get(req.actor, req.id);
  }

  @RpcHandler(S.listFiles)
  listFiles(req: RpcParsedRequest<typeof S.listFiles>) {
    return this.files.list(req.actor, req.query);
  }

  @RpcHandler(S.downloadFile)
  downloadFile(req: RpcParsedRequest<typeof S.downloadFile>) {
    return this.files.download(req.actor, req.id);
  }

  @RpcHandler(S.deleteFile)
  deleteFile(req: RpcParsedRequest<typeof S.deleteFile>) {
    return this.files.delete(req.actor, req.id);
  }
}
