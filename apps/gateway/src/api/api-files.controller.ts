import { Controller, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import { AppError, ControlSubjects as S, ListParamsSchema, type Actor } from '@agentry/contracts';
import {
  API_FILE_CONTENT_MAX_BYTES,
  ApiUploadFileRequestSchema,
  fileToApi,
  type ApiUploadFileRequest,
} from '@agentry/contracts/api';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { ZodBody } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** `/api/files`: text files in JSON over the same store as `/v1/files`. */
@Controller('api/files')
@UseFilters(ApiErrorFilter)
export class ApiFilesController extends rpcRoutes({
  list: {
    route: 'GET',
    subject: S.listFiles,
    query: ListParamsSchema,
    page: fileToApi,
  },
  get: { route: 'GET :id', subject: S.getFile, reply: fileToApi },
  remove: { route: 'DELETE :id', subject: S.deleteFile, status: 204 },
}) {
  @Post()
  @HttpCode(200)
  async upload(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiUploadFileRequestSchema) body: ApiUploadFileRequest,
  ) {
    const content = Buffer.from(body.content, 'utf8');
    if (content.byteLength > API_FILE_CONTENT_MAX_BYTES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `content: ${content.byteLength} bytes exceeds the limit of ${API_FILE_CONTENT_MAX_BYTES} bytes`,
      );
    }
    const file = await this.rpc.request(S.uploadFile, {
      actor,
      body: {
        filename: body.filename,
        mime_type: body.contentType ?? 'text/plain',
        content_base64: content.toString('base64'),
      },
    });
    return fileToApi(file);
  }

  @Get(':id/content')
  async content(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const file = await this.rpc.request(S.downloadFile, { actor, id });
    return {
      id,
      filename: file.filename,
      content: Buffer.from(file.content_base64, 'base64').toString('utf8'),
    };
  }
}
