import { ErrorCode, ValidationError } from '../common/errors';
import type { NextFunction, Request, Response } from 'express';

/** Deeper than this, a JSON body is refused before anything walks it (class-transformer recurses). */
export const MAX_JSON_DEPTH = 32;

type Problem = 'depth' | 'nul';

/** The first problem of a parsed value, found without recursion (a 10,000-deep body must not overflow the stack). */
function problemOf(root: unknown): Problem | null {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'nul';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return 'depth';
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return 'nul';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

const MESSAGES: Record<Problem, string> = {
  depth: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
  nul: 'Text must not contain the NUL character',
};

/**
 * Refuses, with the catalogue's 400, a JSON body or query nested deeper than MAX_JSON_DEPTH or a
 * text holding a NUL character (PostgreSQL refuses those, which used to end in a 500), before any
 * pipe or handler sees them.
 */
export function requestShapeGuard() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const problem = problemOf(req.body) ?? problemOf(req.query);
    if (!problem) return next();
    res.status(400).json({ statusCode: 400, code: ErrorCode.VALIDATION_ERROR, message: MESSAGES[problem] });
  };
}

/** The same check for bodies parsed later (multipart forms): throws the catalogue's 400. */
export function assertRequestShape(value: unknown): void {
  const problem = problemOf(value);
  if (problem) throw new ValidationError(MESSAGES[problem]);
}
