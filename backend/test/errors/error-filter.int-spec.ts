import { Controller, Get, HttpCode, Module, Post, Body } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { IsEmail, IsString } from 'class-validator';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createValidationPipe } from '../../src/bootstrap/configure-app';
import {
  AppExceptionFilter,
  ErrorCode,
  GenerationError,
  InsufficientCreditsError,
  TimeoutError,
  ValidationError,
} from '../../src/common/errors';
import { testDatabaseUrl, uniqueId } from '../helpers/test-app';
import type { NestExpressApplication } from '@nestjs/platform-express';

const table = `err_${uniqueId('t').replace(/-/g, '_')}`;
const role = `${table}_role`;

class ProbeDto {
  @IsEmail()
  email: string;

  @IsString()
  name: string;
}

/** Routes that fail for real: real SQL against the test database, real validation pipe. */
@Controller('probe')
class ProbeController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @Get('duplicate') async duplicate() {
    await this.db.query(`INSERT INTO ${table}_parent (id) VALUES (1)`);
  }
  @Get('foreign-key') async foreignKey() {
    await this.db.query(`INSERT INTO ${table}_child (parent_id) VALUES (999)`);
  }
  @Get('not-null') async notNull() {
    await this.db.query(`INSERT INTO ${table}_child (parent_id) VALUES (NULL)`);
  }
  @Get('permission') async permission() {
    await this.db.transaction(async (m) => {
      await m.query(`SET LOCAL ROLE ${role}`);
      await m.query(`SELECT * FROM ${table}_parent`);
    });
  }
  @Get('missing-table') async missingTable() {
    await this.db.query(`SELECT * FROM ${table}_does_not_exist`);
  }
  @Get('credits') credits() {
    throw new InsufficientCreditsError(5, 2);
  }
  @Get('validation') validation() {
    throw new ValidationError('Please upload image files only');
  }
  @Get('timeout') timeout() {
    throw new TimeoutError('generation request');
  }
  @Get('generation') generation() {
    throw new GenerationError('The provider refused the image');
  }
  @Get('bug') bug() {
    const secret = { password_hash: '$argon2id$v=19$secret' };
    throw new Error(`boom ${JSON.stringify(secret)} at /srv/app/dist/x.js:12`);
  }
  @Post('dto') @HttpCode(200) dto(@Body() body: ProbeDto) {
    return body;
  }
}

@Module({
  imports: [TypeOrmModule.forRoot({ type: 'postgres', url: testDatabaseUrl(), logging: false })],
  controllers: [ProbeController],
})
class ProbeModule {}

describe('the exception filter over real failures', () => {
  let app: NestExpressApplication;
  let db: DataSource;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ProbeModule] }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    app.setGlobalPrefix('api');
    app.useGlobalPipes(createValidationPipe());
    app.useGlobalFilters(new AppExceptionFilter());
    await app.init();
    db = app.get(DataSource);
    await db.query(`CREATE TABLE ${table}_parent (id int PRIMARY KEY)`);
    await db.query(`CREATE TABLE ${table}_child (id serial PRIMARY KEY, parent_id int NOT NULL REFERENCES ${table}_parent(id))`);
    await db.query(`INSERT INTO ${table}_parent (id) VALUES (1)`);
    await db.query(`CREATE ROLE ${role} NOLOGIN`);
  });

  afterAll(async () => {
    await db.query(`DROP TABLE IF EXISTS ${table}_child, ${table}_parent`);
    await db.query(`DROP ROLE IF EXISTS ${role}`);
    await app.close();
  });

  it.each([
    ['duplicate', 409, ErrorCode.DUPLICATE_RECORD, 'This record already exists.'],
    ['foreign-key', 409, ErrorCode.RELATED_RECORD_NOT_FOUND, 'Related record not found.'],
    ['not-null', 400, ErrorCode.REQUIRED_FIELD_MISSING, 'Required field is missing.'],
    ['permission', 403, ErrorCode.PERMISSION_DENIED, 'Permission denied.'],
    ['missing-table', 500, ErrorCode.RESOURCE_NOT_FOUND, 'Resource not found.'],
    ['credits', 400, ErrorCode.INSUFFICIENT_CREDITS, 'Insufficient credits. Required: 5, Available: 2.'],
    ['validation', 400, ErrorCode.VALIDATION_ERROR, 'Please upload image files only'],
    ['timeout', 408, ErrorCode.TIMEOUT_ERROR, 'Operation timed out: generation request. Please try again.'],
    ['generation', 500, ErrorCode.GENERATION_ERROR, 'The provider refused the image'],
    ['bug', 500, ErrorCode.UNKNOWN_ERROR, 'An unexpected error occurred. Please try again.'],
  ])('GET /api/probe/%s answers %i %s with exactly { statusCode, code, message }', async (route, statusCode, code, message) => {
    const res = await request(app.getHttpServer()).get(`/api/probe/${route}`);
    expect(res.status).toBe(statusCode);
    expect(res.body).toEqual({ statusCode, code, message });
    expect(res.text).not.toMatch(new RegExp(`${table}|INSERT|SELECT|argon2|/srv/app|at .*\\.js`));
  });

  it('refuses unknown fields and names the bad one, with the validation code', async () => {
    const extra = await request(app.getHttpServer()).post('/api/probe/dto').send({ email: 'a@b.co', name: 'A', isAdmin: true });
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ statusCode: 400, code: ErrorCode.VALIDATION_ERROR, message: 'property isAdmin should not exist' });
    const bad = await request(app.getHttpServer()).post('/api/probe/dto').send({ email: 'nope', name: 'A' });
    expect(bad.body).toEqual({ statusCode: 400, code: ErrorCode.VALIDATION_ERROR, message: 'email must be an email' });
    const ok = await request(app.getHttpServer()).post('/api/probe/dto').send({ email: 'a@b.co', name: 'A' });
    expect(ok.body).toEqual({ email: 'a@b.co', name: 'A' });
  });

  it('answers an unknown route with 404 in the same shape', async () => {
    const res = await request(app.getHttpServer()).get('/api/nothing-here');
    expect(res.body).toEqual({ statusCode: 404, code: ErrorCode.NOT_FOUND, message: 'Resource not found.' });
  });
});
