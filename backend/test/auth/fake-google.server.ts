import { createHash, randomBytes } from 'node:crypto';
import { LocalHttpServer } from '../fakes/local-http-server';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FakeGoogleIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

interface PendingCode {
  identity: FakeGoogleIdentity;
  redirectUri: string;
  challenge: string;
  clientId: string;
}

/**
 * A local stand-in for Google's OAuth 2.0 / OpenID Connect endpoints, speaking the same protocol:
 * GET /authorize (redirects back with code and state), POST /token (authorization_code grant with
 * client secret and PKCE S256), GET /userinfo (Bearer access token). The consenting identity is
 * whatever the test sets in `nextIdentity`.
 */
export class FakeGoogleServer {
  readonly clientId = 'fake-client-id.apps.example';
  readonly clientSecret = 'fake-client-secret';
  nextIdentity?: FakeGoogleIdentity;
  /** makes the token endpoint fail (as when Google is down) */
  failTokenExchange = false;
  readonly calls = { authorize: 0, token: 0, userinfo: 0 };
  readonly authorizeRequests: URLSearchParams[] = [];
  private readonly http = new LocalHttpServer((req, res) => this.handle(req, res));
  private readonly codes = new Map<string, PendingCode>();
  private readonly tokens = new Map<string, FakeGoogleIdentity>();

  start(): Promise<string> {
    return this.http.start();
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  env(): Record<string, string> {
    return {
      AUTH_GOOGLE_CLIENT_ID: this.clientId,
      AUTH_GOOGLE_CLIENT_SECRET: this.clientSecret,
      AUTH_GOOGLE_AUTHORIZATION_URL: `${this.baseUrl}/authorize`,
      AUTH_GOOGLE_TOKEN_URL: `${this.baseUrl}/token`,
      AUTH_GOOGLE_USERINFO_URL: `${this.baseUrl}/userinfo`,
    };
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/authorize') {
      this.calls.authorize++;
      const q = url.searchParams;
      this.authorizeRequests.push(q);
      if (
        q.get('response_type') !== 'code' ||
        q.get('client_id') !== this.clientId ||
        q.get('code_challenge_method') !== 'S256' ||
        !q.get('code_challenge')
      ) {
        return json(400, { error: 'invalid_request' });
      }
      const back = new URL(q.get('redirect_uri')!);
      if (!this.nextIdentity) {
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = randomBytes(16).toString('hex');
        this.codes.set(code, {
          identity: this.nextIdentity,
          redirectUri: q.get('redirect_uri')!,
          challenge: q.get('code_challenge')!,
          clientId: q.get('client_id')!,
        });
        back.searchParams.set('code', code);
      }
      if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
      res.writeHead(302, { Location: back.toString() });
      return void res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      this.calls.token++;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      if (this.failTokenExchange) return json(500, { error: 'internal_failure' });
      const pending = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        !pending ||
        form.get('grant_type') !== 'authorization_code' ||
        form.get('client_id') !== this.clientId ||
        form.get('client_secret') !== this.clientSecret ||
        form.get('redirect_uri') !== pending.redirectUri ||
        challenge !== pending.challenge
      ) {
        return json(400, { error: 'invalid_grant' });
      }
      const accessToken = randomBytes(16).toString('hex');
      this.tokens.set(accessToken, pending.identity);
      return json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3599, scope: 'openid email profile' });
    }
    if (req.method === 'GET' && url.pathname === '/userinfo') {
      this.calls.userinfo++;
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const identity = token ? this.tokens.get(token) : undefined;
      if (!identity) return json(401, { error: 'invalid_token', error_description: 'Invalid Credentials' });
      return json(200, { ...identity, given_name: identity.name.split(' ')[0], picture: 'https://example.invalid/p.png' });
    }
    json(404, { error: 'not_found' });
  }
}
