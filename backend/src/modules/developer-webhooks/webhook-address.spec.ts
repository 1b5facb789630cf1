import { isPublicAddress, publicOnlyLookup, RefusedAddressError, webhookUrlProblem } from './webhook-address';

describe('where developer webhooks may go (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '100.64.0.1', // CGNAT
    '100.100.100.200', // Alibaba Cloud's metadata
    '0.0.0.0',
    '224.0.0.1', // multicast
    '255.255.255.255',
    '198.18.0.1',
    '192.0.2.10',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254', // AWS's IPv6 metadata
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1', // IPv4-mapped
    '::ffff:7f00:1',
    '::127.0.0.1', // IPv4-compatible (deprecated)
    '::ffff:a9fe:a9fe', // mapped metadata address
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2001:db8::1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each([
    '93.184.215.14',
    '1.1.1.1',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
  ])('allows the public address %s', (address) => expect(isPublicAddress(address)).toBe(true));

  it('allows https only in production, with no credentials and no private literal', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x', false)).toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/x', false)).toMatch(/https/);
    expect(webhookUrlProblem('http://localhost:8080/x', false)).toMatch(/https/);
    expect(webhookUrlProblem('https://localhost/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://api.localhost/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://127.0.0.1/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://[::1]/x', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://169.254.169.254/latest/meta-data', false)).toMatch(/private/);
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/x', false)).toMatch(/user name/);
    expect(webhookUrlProblem('ftp://hooks.example.com/x', false)).toMatch(/https/);
    expect(webhookUrlProblem('not a url', false)).toMatch(/not valid/);
  });

  it('outside production also allows http:// to localhost, and nothing else over http', () => {
    expect(webhookUrlProblem('http://localhost:8080/x', true)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:8080/x', true)).toBeNull();
    expect(webhookUrlProblem('http://[::1]:8080/x', true)).toBeNull();
    expect(webhookUrlProblem('http://10.0.0.5/x', true)).toMatch(/https/);
    expect(webhookUrlProblem('http://hooks.example.com/x', true)).toMatch(/https/);
  });

  it('refuses, at connection time, a host name that resolves to a loopback address', async () => {
    const outcome = await new Promise<{ err: unknown; address: unknown }>((resolve) =>
      publicOnlyLookup('localhost', { all: false }, (err, address) => resolve({ err, address })),
    );
    expect(outcome.err).toBeInstanceOf(RefusedAddressError);
    expect(outcome.address).toBe('');
  });
});
