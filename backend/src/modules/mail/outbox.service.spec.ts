import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { userIdHash } from '../privacy/personal-text';
import { OUTBOX_FILE, outboxFileAccount, outboxFileName, type Mailer } from './mailer.service';
import { composeMime } from './mime';
import { DirectoryOutbox } from './outbox-store';
import { OutboxService } from './outbox.service';

const PERSON = '0b0f3c4e-6a3e-4a57-9d6c-2d0b8f1e4c11';
const OTHER = '5d1e2f3a-0000-4000-8000-000000000002';

describe('OutboxService.forget: the mail files of a deleted account', () => {
  let dir: string;
  let outbox: OutboxService;
  let n = 0;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-outbox-'));
    outbox = new OutboxService({ outbox: new DirectoryOutbox(dir), viaSmtp: false } as unknown as Mailer);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Writes a message as the mailer does; answers its file name. */
  function write(to: string, text: string, account?: string): string {
    n += 1;
    const name = outboxFileName(`20261201T120000${String(n).padStart(3, '0')}Z-${String(n).padStart(4, '0')}abcdef`, 'test-mail', account);
    const raw = composeMime({ from: 'support@example.com', to, subject: 'Hello', text, html: `<p>${text}</p>`, template: 'test-mail' });
    fs.writeFileSync(path.join(dir, name), raw);
    return name;
  }
  const left = () => fs.readdirSync(dir).sort();

  it('names files by the account they are for, and lists them like the others', async () => {
    const tagged = write('ada@example.com', 'hi', PERSON);
    expect(tagged).toMatch(OUTBOX_FILE);
    expect(outboxFileAccount(tagged)).toBe(userIdHash(PERSON));
    expect(outboxFileAccount(write('ada@example.com', 'hi'))).toBeUndefined();
    expect((await outbox.list(0, 10)).total).toBe(2);
  });

  it('with the whole address: every file written for the account, to the address, or naming it; nothing else', async () => {
    const gone = [
      write('ada@example.com', 'Hi Ada', PERSON),
      write('"Ada Lovelace" <Ada@Example.com>', 'an old notice, before files carried their account'),
      write('support@example.com', 'A ticket from ada@example.com.'),
    ];
    const kept = [
      write('bob@example.com', 'Hi Bob', OTHER),
      write('bob@example.com', 'write to xada@example.com or ada@example.community'),
      write('bob@example.com', 'nothing about anyone'),
    ];
    expect(await outbox.forget({ userId: PERSON, email: 'ada@example.com', wholeAddress: true })).toBe(3);
    expect(left()).toEqual(kept.sort());
    for (const name of gone) await expect(outbox.get(name)).rejects.toMatchObject({ statusCode: 404 });
  });

  it("without it (the address's owner remains): only the files written for the account", async () => {
    const own = write('ada@example.com', 'Hi Not The Owner', PERSON);
    const owners = [write('ada@example.com', 'Hi Ada', OTHER), write('ada@example.com', 'an untagged notice')];
    expect(await outbox.forget({ userId: PERSON, email: 'ada@example.com', wholeAddress: false })).toBe(1);
    expect(left()).toEqual(owners.sort());
    expect(left()).not.toContain(own);
  });

  it('does nothing when there is no outbox folder', async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    expect(await outbox.forget({ userId: PERSON, email: 'ada@example.com', wholeAddress: true })).toBe(0);
  });
});
