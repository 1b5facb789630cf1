import { newTestService } from '../../../test/helpers/new-test-service';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService, requestHash } from './idempotency.service';

const file = (bytes: string, name = 'me.jpg') => ({
  fieldname: 'files',
  originalname: name,
  mimetype: 'image/jpeg',
  buffer: Buffer.from(bytes),
});

describe('request hash of an idempotent request', () => {
  it('is the same for the same JSON whatever the order of its keys, and differs for any other value', () => {
    const a = requestHash({ type: 'image', category: 'bikini', upload_ids: ['u1', 'u2'], extra: { b: 1, a: 2 } });
    expect(requestHash({ extra: { a: 2, b: 1 }, upload_ids: ['u1', 'u2'], category: 'bikini', type: 'image' })).toBe(a);
    expect(requestHash({ type: 'image', category: 'bikini', upload_ids: ['u2', 'u1'], extra: { b: 1, a: 2 } })).not.toBe(a);
    expect(requestHash({ type: 'video', category: 'bikini', upload_ids: ['u1', 'u2'], extra: { b: 1, a: 2 } })).not.toBe(a);
    expect(requestHash({})).toBe(requestHash(undefined));
  });

  it("counts a multipart form's files: their bytes, names and order", () => {
    const fields = { confirm_own_photos: 'true' };
    const one = requestHash(fields, [file('AAAA')]);
    expect(requestHash(fields, [file('AAAA')])).toBe(one);
    expect(requestHash(fields, [file('AAAB')])).not.toBe(one);
    expect(requestHash(fields, [file('AAAA', 'other.jpg')])).not.toBe(one);
    expect(requestHash(fields, [file('AAAA'), file('BBBB')])).not.toBe(requestHash(fields, [file('BBBB'), file('AAAA')]));
    expect(requestHash(fields)).not.toBe(one);
  });
});

describe('IdempotencyService.begin', () => {
  const setup = () => {
    const { sut, mock } = newTestService(IdempotencyService);
    return { sut, repo: mock(IdempotencyRepository) };
  };

  it('runs a request whose key is new (or free again)', async () => {
    const { sut, repo } = setup();
    repo.claim.mockResolvedValue(true);
    await expect(sut.begin('u1', 'key-1', 'POST /api/generations', 'h1')).resolves.toEqual({ kind: 'run' });
    expect(repo.claim).toHaveBeenCalledWith('u1', 'key-1', 'POST /api/generations', 'h1');
  });

  it('gives the kept answer to a retry with the same route and body', async () => {
    const { sut, repo } = setup();
    repo.claim.mockResolvedValue(false);
    repo.find.mockResolvedValue({ route: 'POST /api/generations', requestHash: 'h1', statusCode: 202, response: { id: 'g1' } });
    await expect(sut.begin('u1', 'key-1', 'POST /api/generations', 'h1')).resolves.toEqual({
      kind: 'replay',
      statusCode: 202,
      response: { id: 'g1' },
    });
  });

  it('answers 422 for the same key with another body or route, and 409 while the first is unanswered', async () => {
    const { sut, repo } = setup();
    repo.claim.mockResolvedValue(false);
    repo.find.mockResolvedValue({ route: 'POST /api/generations', requestHash: 'h1', statusCode: 202, response: {} });
    await expect(sut.begin('u1', 'k', 'POST /api/generations', 'h2')).rejects.toMatchObject({
      statusCode: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    await expect(sut.begin('u1', 'k', 'POST /api/uploads', 'h1')).rejects.toMatchObject({
      statusCode: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    repo.find.mockResolvedValue({ route: 'POST /api/generations', requestHash: 'h1', statusCode: null, response: null });
    await expect(sut.begin('u1', 'k', 'POST /api/generations', 'h1')).rejects.toMatchObject({
      statusCode: 409,
      code: 'IDEMPOTENCY_KEY_IN_USE',
    });
  });

  it.each(['', 'x'.repeat(256), 'with space', 'tab\there', 'é'])('refuses the key %p with 400, touching nothing', async (key) => {
    const { sut, repo } = setup();
    await expect(sut.begin('u1', key, 'POST /api/generations', 'h1')).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expect(repo.claim).not.toHaveBeenCalled();
  });

  it('never fails an answered request when its answer cannot be kept', async () => {
    const { sut, repo } = setup();
    repo.complete.mockRejectedValue(new Error('database away'));
    await expect(sut.complete('u1', 'k', 202, { id: 'g1' })).resolves.toBeUndefined();
  });
});
