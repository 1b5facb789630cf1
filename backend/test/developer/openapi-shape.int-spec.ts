/**
 * The OpenAPI document as a developer's generated client reads it (docs/api.md): operation ids that
 * read as function names (a verb first: `createCheckoutSession`, not `checkout`), whole numbers
 * typed `integer`, one way to page the lists a token can read, and the token's bearer scheme.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';

type Schema = { type?: string; $ref?: string; items?: Schema; properties?: Record<string, Schema>; allOf?: Schema[] };
type Operation = {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; schema: Schema }[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
const doc = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, string>> };
};
const operations = Object.entries(doc.paths).flatMap(([route, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ route, method, op })),
);
const schema = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s);

/** The verbs an operation id may start with. */
const VERBS = new Set(
  'adjust cancel change check choose create delete disable download enable export finish get give is list mark preview receive refresh remove renew replace replay reply request resend reset revoke send set sign start stream suspend unsubscribe unsuspend update upload verify'.split(
    ' ',
  ),
);

/** Properties that are measures, not counts (shares, distances, prices in dollars). */
const FRACTIONAL = /^(distance|threshold|tries|success_rate|agreement|coverage|score|price|mrr|.*revenue.*|refunded_amount_30d)$/;

describe('the OpenAPI document, as a generated client reads it', () => {
  it('names every operation with a verb first, each name once', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !VERBS.has(/^[a-z]+/.exec(id)?.[0] ?? ''))).toEqual([]);
    expect(ids).toEqual(expect.arrayContaining(['createCheckoutSession', 'createPortalSession', 'getUploadUsage', 'requestPasswordReset']));
  });

  it('types whole numbers as integer: only shares, distances and prices stay number', () => {
    const numbers: string[] = [];
    for (const [name, s] of Object.entries(doc.components.schemas)) {
      for (const [prop, p] of Object.entries(s.properties ?? {})) {
        if ((p.type ?? p.items?.type) === 'number' && !FRACTIONAL.test(prop)) numbers.push(`${name}.${prop}`);
      }
    }
    for (const { route, method, op } of operations) {
      for (const param of op.parameters ?? []) if (param.schema?.type === 'number') numbers.push(`${method} ${route} ?${param.name}`);
    }
    expect(numbers).toEqual([]);
  });

  it('pages every list a token can read the same way: page and page_size in, { items, total, page, page_size } out, all integers', () => {
    const lists = operations.filter(({ method, op }) => {
      if (method !== 'get' || !op.security?.some((s) => 'apiToken' in s)) return false;
      const body = op.responses['200']?.content?.['application/json']?.schema;
      return !!body && (schema(body).type === 'array' || !!schema(body).properties?.items);
    });
    expect(lists.map((l) => l.route)).toEqual(['/api/generations']);
    for (const { op } of lists) {
      const answer = schema(op.responses['200'].content!['application/json'].schema);
      expect(Object.keys(answer.properties!).sort()).toEqual(['items', 'page', 'page_size', 'total']);
      for (const key of ['page', 'page_size', 'total']) expect(answer.properties![key].type).toBe('integer');
      const params = Object.fromEntries((op.parameters ?? []).map((p) => [p.name, p.schema.type]));
      expect(params).toMatchObject({ page: 'integer', page_size: 'integer' });
    }
  });

  it('declares the personal API token as a bearer scheme', () => {
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
