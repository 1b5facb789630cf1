import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Fixed window counter plus a block key, in one atomic script:
 * KEYS[1] hits, KEYS[2] block; ARGV ttl ms, limit, block ms. Answers hits, ms left in the window,
 * blocked (0/1) and ms left of the block.
 */
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then return {hits, ttl, 1, blocked} end
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return {hits, ttl, 1, tonumber(ARGV[3])}
end
return {hits, ttl, 0, 0}
`;

/**
 * @nestjs/throttler storage on Redis (INCR + PEXPIRE), shared by every API process. If Redis does not
 * answer, requests are let through (logged): rate limiting is a defence in depth, not a reason to
 * stop people signing in.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly client: Redis;
  private connecting?: Promise<void>;
  private lastWarning = 0;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    this.client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.client.on('error', (error) => this.warn(error, 'Redis connection error'));
  }

  onModuleInit(): Promise<void> {
    this.connecting ??= this.client.connect().catch((error) => this.warn(error, 'Redis is not answering; rate limits are off until it does'));
    return this.connecting;
  }

  onApplicationShutdown(): void {
    if (this.client.status !== 'end') this.client.disconnect();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const base = `${this.prefix}:${throttlerName}:${key}`;
    try {
      const [hits, ttlMs, blocked, blockMs] = (await this.client.eval(INCREMENT, 2, base, `${base}:block`, ttl, limit, blockDuration)) as number[];
      return { totalHits: hits, timeToExpire: Math.ceil(ttlMs / 1000), isBlocked: blocked === 1, timeToBlockExpire: Math.ceil(blockMs / 1000) };
    } catch (error) {
      this.warn(error, 'rate limit check failed; request let through');
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
    }
  }

  private warn(error: unknown, message: string): void {
    if (Date.now() - this.lastWarning < 30_000) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err: error }, message);
  }
}
