import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { type ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import Redis from 'ioredis';

/**
 * The throttler's storage, plus plain counters for limits the throttler cannot express (sign-in
 * failures per account and client, mail sent per account): `hit` adds one and answers the count
 * and the ms left in the window; `undo` takes one back; `clear` forgets the key.
 */
export interface RateLimitStore extends ThrottlerStorage {
  hit(key: string, windowMs: number, amount?: number): Promise<{ count: number; msLeft: number }>;
  /** the count now, without adding (0 when the window is over) */
  peek(key: string): Promise<{ count: number; msLeft: number }>;
  /** takes `amount` (1) back; never below zero, and a window that is over stays over */
  undo(key: string, amount?: number): Promise<void>;
  clear(key: string): Promise<void>;
  /** where the counters live now: `redis`, or `memory` (no Redis, or Redis does not answer) */
  where(): 'redis' | 'memory';
}

const UNDO = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local n = redis.call('DECRBY', KEYS[1], ARGV[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
return n
`;

const HIT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`;

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
 * @nestjs/throttler storage on Redis (INCR + PEXPIRE), shared by every API process. While Redis
 * does not answer, the counters fall back to this process's memory (logged, and said by
 * /api/health's `rate_limits`): the limits hold per process rather than switching off, and nobody
 * is stopped from signing in by an outage.
 */
export class RedisThrottlerStorage implements RateLimitStore, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly client: Redis;
  private readonly fallback = new MemoryRateLimitStore();
  private connecting?: Promise<void>;
  private lastWarning = 0;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    this.client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.client.on('error', (error) => this.warn(error, 'Redis connection error: rate limits are counted in memory until it answers'));
  }

  where(): 'redis' | 'memory' {
    return this.client.status === 'ready' ? 'redis' : 'memory';
  }

  onModuleInit(): Promise<void> {
    this.connecting ??= this.client
      .connect()
      .catch((error) => this.warn(error, 'Redis is not answering; rate limits are off until it does'));
    return this.connecting;
  }

  onApplicationShutdown(): void {
    if (this.client.status !== 'end') this.client.disconnect();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const base = `${this.prefix}:${throttlerName}:${key}`;
    try {
      const [hits, ttlMs, blocked, blockMs] = (await this.client.eval(
        INCREMENT,
        2,
        base,
        `${base}:block`,
        ttl,
        limit,
        blockDuration,
      )) as number[];
      return {
        totalHits: hits,
        timeToExpire: Math.ceil(ttlMs / 1000),
        isBlocked: blocked === 1,
        timeToBlockExpire: Math.ceil(blockMs / 1000),
      };
    } catch (error) {
      this.warn(error, 'rate limit check failed on Redis: counted in memory');
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  async hit(key: string, windowMs: number, amount = 1): Promise<{ count: number; msLeft: number }> {
    try {
      const [count, msLeft] = (await this.client.eval(HIT, 1, `${this.prefix}:c:${key}`, windowMs, amount)) as number[];
      return { count, msLeft };
    } catch (error) {
      this.warn(error, 'rate limit check failed on Redis: counted in memory');
      return this.fallback.hit(key, windowMs, amount);
    }
  }

  async peek(key: string): Promise<{ count: number; msLeft: number }> {
    try {
      const full = `${this.prefix}:c:${key}`;
      const [count, msLeft] = await Promise.all([this.client.get(full), this.client.pttl(full)]);
      return { count: Number(count ?? 0), msLeft: Math.max(0, msLeft) };
    } catch (error) {
      this.warn(error, 'rate limit check failed on Redis: counted in memory');
      return this.fallback.peek(key);
    }
  }

  async undo(key: string, amount = 1): Promise<void> {
    if (this.where() === 'memory') return this.fallback.undo(key, amount);
    await this.client.eval(UNDO, 1, `${this.prefix}:c:${key}`, amount).catch((error) => this.warn(error, 'rate limit update failed'));
  }

  async clear(key: string): Promise<void> {
    await this.fallback.clear(key);
    await this.client.del(`${this.prefix}:c:${key}`).catch((error) => this.warn(error, 'rate limit update failed'));
  }

  private warn(error: unknown, message: string): void {
    if (Date.now() - this.lastWarning < 30_000) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err: error }, message);
  }
}

/** The same counters in this process's memory (no REDIS_URL: one API process). */
export class MemoryRateLimitStore extends ThrottlerStorageService implements RateLimitStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();

  peek(key: string): Promise<{ count: number; msLeft: number }> {
    const counter = this.counters.get(key);
    const now = Date.now();
    return Promise.resolve(
      counter && counter.expiresAt > now ? { count: counter.count, msLeft: counter.expiresAt - now } : { count: 0, msLeft: 0 },
    );
  }

  hit(key: string, windowMs: number, amount = 1): Promise<{ count: number; msLeft: number }> {
    const now = Date.now();
    if (this.counters.size > 10_000) for (const [k, c] of this.counters) if (c.expiresAt <= now) this.counters.delete(k);
    let counter = this.counters.get(key);
    if (!counter || counter.expiresAt <= now) {
      counter = { count: 0, expiresAt: now + windowMs };
      this.counters.set(key, counter);
    }
    counter.count += amount;
    return Promise.resolve({ count: counter.count, msLeft: counter.expiresAt - now });
  }

  undo(key: string, amount = 1): Promise<void> {
    const counter = this.counters.get(key);
    if (counter) counter.count = Math.max(0, counter.count - amount);
    return Promise.resolve();
  }

  clear(key: string): Promise<void> {
    this.counters.delete(key);
    return Promise.resolve();
  }

  where(): 'memory' {
    return 'memory';
  }
}
