import { ErrorCode } from '../errors';
import { containsPattern, parseListQuery, setContentRange } from './simple-rest';

const OPTIONS = {
  sortable: { id: 'u.id', email: 'u.email', created_at: 'u.created_at' },
  defaultSort: ['created_at', 'DESC'] as [string, 'DESC'],
  defaultPageSize: 100,
  filters: ['q', 'tier'] as const,
};

describe('the ra-data-simple-rest list dialect', () => {
  it('defaults: first page of the default size, default sort with ties broken by id', () => {
    expect(parseListQuery({}, OPTIONS)).toEqual({
      orderBy: 'u.created_at DESC, u.id DESC',
      sortField: 'created_at',
      sortOrder: 'DESC',
      offset: 0,
      limit: 100,
      filter: {},
    });
  });

  it('reads sort, an inclusive range and the filter (plus a plain ?q=)', () => {
    const p = parseListQuery({ sort: '["email","asc"]', range: '[100,199]', filter: '{"tier":"starter","q":""}', q: 'ann' }, OPTIONS);
    expect(p).toMatchObject({ orderBy: 'u.email ASC, u.id ASC', offset: 100, limit: 100, filter: { tier: 'starter', q: 'ann' } });
  });

  it('keeps a list of plain values (react-admin getMany: {"id":[...]})', () => {
    expect(parseListQuery({ filter: '{"q":["a","b"]}' }, OPTIONS).filter).toEqual({ q: ['a', 'b'] });
    expect(() => parseListQuery({ filter: '{"q":[{"a":1}]}' }, OPTIONS)).toThrow(expect.objectContaining({ statusCode: 400 }));
  });

  it('clamps a range longer than 500', () => {
    expect(parseListQuery({ range: '[0,9999]' }, OPTIONS)).toMatchObject({ offset: 0, limit: 500 });
  });

  it.each([
    [{ sort: 'email' }],
    [{ sort: '["password_hash","ASC"]' }],
    [{ sort: '["email","SIDEWAYS"]' }],
    [{ sort: '["toString","ASC"]' }],
    [{ range: '[5,1]' }],
    [{ range: '[-1,10]' }],
    [{ range: '[0.5,10]' }],
    [{ range: '[1e300,1e301]' }],
    [{ range: '{"a":1}' }],
    [{ filter: '[1]' }],
    [{ filter: '{"role":"admin"}' }],
    [{ filter: '{"q":{"$ne":1}}' }],
    [{ filter: 'nope' }],
  ])('refuses %p with a VALIDATION_ERROR', (query) => {
    expect(() => parseListQuery(query, OPTIONS)).toThrow(expect.objectContaining({ code: ErrorCode.VALIDATION_ERROR, statusCode: 400 }));
  });

  it('escapes LIKE wildcards so that search text matches literally', () => {
    expect(containsPattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });

  it('answers Content-Range for a page and for an empty page', () => {
    const headers: Record<string, string> = {};
    const res = { setHeader: (k: string, v: string) => (headers[k] = v) } as never;
    setContentRange(res, 'users', 100, 100, 1234);
    expect(headers['Content-Range']).toBe('users 100-199/1234');
    setContentRange(res, 'users', 0, 0, 0);
    expect(headers['Content-Range']).toBe('users */0');
  });
});
