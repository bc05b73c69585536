import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { AppError, ControlSubjects as S, type Actor } from '@agentry/contracts';
import { ListFilesParamsSchema, UploadFileFormSchema, type ListFilesParams } from '@agentry/contracts/v1';
import { RpcClient } from '@agentry/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { parseOrThrow, ZodQuery } from '../http/zod-params.js';
import { readMultipartForm } from './multipart-body.parser.js';

@Controller('v1/files')
export class FilesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  async upload(@CurrentActor() actor: Actor, @Req() request: FastifyRequest) {
    const form = await readMultipartForm(request);
    const file = form.get('file');
    if (!(file instanceof Blob)) throw new AppError('INVALID_REQUEST', 'file: a file part is required');
    const fields = parseOrThrow(
      UploadFileFormSchema,
      Object.fromEntries([...form.entries()].filter(([k]) => k !== 'file')),
      'body',
    );
    // No expiry is kept for uploads yet; saying so beats silently keeping the file forever.
    if (fields.expires_in_seconds !== undefined) {
      throw new AppError(
        'INVALID_REQUEST',
        'expires_in_seconds: file expiry is not supported by this installation',
      );
    }
    const name = file instanceof File && file.name ? file.name : 'unnamed';
    const content = Buffer.from(await file.arrayBuffer()).toString('base64');
    return this.rpc.request(S.uploadFile, {
      actor,
      body: { filename: name, mime_type: file.type || 'application/octet-stream', content_base64: content },
    });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListFilesParamsSchema) query: ListFilesParams) {
    return this.rpc.request(S.listFiles, { actor, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getFile, { actor, id });
  }

  @Get(':id/content')
  async download(@CurrentActor() actor: Actor, @Param('id') id: string, @Res() reply: FastifyReply) {
    const file = await this.rpc.request(S.downloadFile, { actor, id });
    await reply
      .header('content-type', file.mime_type)
      .header('content-disposition', `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`)
      .send(Buffer.from(file.content_base64, 'base64'));
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.deleteFile, { actor, id });
  }
}
