import { createHmac } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { canAccess } from '../../common/auth/access-policy';
import { ErrorCode, ErrorMessages } from '../../common/errors';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { MessageQueueService } from '../../queue';
import { SessionsRepository } from '../auth/sessions.repository';
import type { AuthUser } from '../../common/auth';
import type { NextFunction, Request, Response } from 'express';

/** Where Bull Board answers (its UI and its own JSON API), and the only path its cookie is sent to. */
export const QUEUE_BOARD_PATH = '/api/admin/queue-board';
export const QUEUE_BOARD_COOKIE = 'fr_queue_board';
/** The board cookie's lifetime: short, the console issues a new one each time the board is opened. */
export const QUEUE_BOARD_TTL_SECONDS = 15 * 60;

interface BoardClaims {
  sub: string;
  sid: string;
  aud: string;
  exp: number;
}

/**
 * Bull Board for admins, when the queue runs on Redis (BullMQ). A browser's navigation to the board
 * carries no bearer header, so `POST /api/admin/queue-board/session` (admin bearer) sets a short-lived
 * httpOnly cookie (path QUEUE_BOARD_PATH, SameSite=Strict): a JWT signed with a key derived from
 * AUTH_JWT_SECRET for this purpose only (it is never accepted as an access token, nor the reverse),
 * naming the admin's session. Every request to the board checks the signature and expiry, that the
 * session is still live (a sign-out ends board access too) and that the account may still see
 * `queues` under the one access policy.
 */
@Injectable()
export class QueueBoardService implements OnModuleInit {
  private readonly logger = new Logger(QueueBoardService.name);
  private mounted = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly queue: MessageQueueService,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsRepository,
  ) {}

  /** Whether the board is served (BullMQ driver in an HTTP process). */
  get available(): boolean {
    return this.mounted;
  }

  onModuleInit(): void {
    // Runs after Nest has registered its own routes and before its 404 handler: the board's
    // router sits behind the Nest routes (POST .../session stays a Nest route) and in front of 404.
    const http = this.adapterHost?.httpAdapter;
    const queues = this.queue.bullQueues();
    if (!http || !queues) return;
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({
      queues: queues.map((q) => new BullMQAdapter(q)),
      // @bull-board/express 9.10.1 declares its own copy of @bull-board/api's types (9.10.2 here):
      // same shape, separate declarations, so TypeScript needs the cast
      serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
      options: { uiConfig: { boardTitle: `${this.config.appName} queues` } },
    });
    http.use(
      QUEUE_BOARD_PATH,
      (req: Request, res: Response, next: NextFunction) => void this.guard(req, res, next),
      serverAdapter.getRouter(),
    );
    this.mounted = true;
    this.logger.log(`Bull Board at ${QUEUE_BOARD_PATH}`);
  }

  /** The cookie for `user`'s session; the caller (an admin route) has checked the role already. */
  async issue(user: AuthUser): Promise<{ token: string; expiresAt: Date }> {
    const exp = Math.floor(Date.now() / 1000) + QUEUE_BOARD_TTL_SECONDS;
    const token = await this.jwt.signAsync({ sub: user.id, sid: user.sessionId, aud: 'queue-board', exp } satisfies BoardClaims, {
      secret: this.secret(),
      algorithm: 'HS256',
    });
    return { token, expiresAt: new Date(exp * 1000) };
  }

  setCookie(res: Response, token: string): void {
    res.cookie(QUEUE_BOARD_COOKIE, token, {
      httpOnly: true,
      secure: this.config.isProduction,
      sameSite: 'strict',
      path: QUEUE_BOARD_PATH,
      maxAge: QUEUE_BOARD_TTL_SECONDS * 1000,
    });
  }

  /** The admin behind a board cookie, or why not: 401 (no/invalid/expired cookie, session over), 403 (role). */
  async verify(token: string | undefined): Promise<{ ok: true; userId: string } | { ok: false; status: 401 | 403 }> {
    if (!token) return { ok: false, status: 401 };
    let claims: BoardClaims;
    try {
      claims = await this.jwt.verifyAsync<BoardClaims>(token, { secret: this.secret(), algorithms: ['HS256'], audience: 'queue-board' });
    } catch {
      return { ok: false, status: 401 };
    }
    const uuid = /^[0-9a-f-]{36}$/i;
    if (!uuid.test(String(claims.sub)) || !uuid.test(String(claims.sid))) return { ok: false, status: 401 };
    const role = await this.sessions.roleOfLiveSession(claims.sid, claims.sub);
    if (!role) return { ok: false, status: 401 };
    if (!canAccess(role, 'queues', 'list')) return { ok: false, status: 403 };
    return { ok: true, userId: claims.sub };
  }

  private async guard(req: Request, res: Response, next: NextFunction): Promise<void> {
    try {
      const raw = (req as Request & { cookies?: Record<string, unknown> }).cookies?.[QUEUE_BOARD_COOKIE];
      const outcome = await this.verify(typeof raw === 'string' ? raw : undefined);
      if (!outcome.ok) {
        const body =
          outcome.status === 401
            ? { statusCode: 401, code: ErrorCode.AUTH_ERROR, message: ErrorMessages.auth }
            : { statusCode: 403, code: ErrorCode.FORBIDDEN, message: ErrorMessages.permissionDenied };
        res.status(outcome.status).json(body);
        return;
      }
      res.setHeader('Cache-Control', 'no-store');
      next();
    } catch (err) {
      next(err);
    }
  }

  /** A key for this cookie only, derived from AUTH_JWT_SECRET (so an access token never verifies here, nor this there). */
  private secret(): string {
    return createHmac('sha256', this.config.auth.jwtSecret).update('fitting-room:queue-board-cookie').digest('base64url');
  }
}
