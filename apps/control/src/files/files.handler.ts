import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { FilesService } from './files.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('files', {
  upload: S.uploadFile,
  get: S.getFile,
  list: S.listFiles,
  download: S.downloadFile,
  delete: S.deleteFile,
})
export class FilesHandler {
  constructor(readonly files: FilesService) {}
}
