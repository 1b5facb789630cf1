import {
  type BuildingBlocksResponseDto,
  checkCustomPose,
  getCustomPoseBuildingBlocks,
  type CustomPoseCheckResponseDto,
  type CustomPoseNotUnderstoodDto,
} from '@fitting-room/api-client';
import { unwrap } from '@fitting-room/shared/browser';
import { queryOptions } from '@tanstack/react-query';

/**
 * The help for writing a custom pose the check understands (docs/safety.md "The help in the
 * generate panel"): the API says which words it did not understand, with close words it knows
 * (POST /api/generations/custom-pose/check, nothing recorded), and offers building blocks as chips
 * (GET /api/generations/custom-pose/building-blocks). The vocabulary stays on the server: one source.
 */

export type CustomPoseNotUnderstood = CustomPoseNotUnderstoodDto;
export type CustomPoseUnderstanding = CustomPoseCheckResponseDto;
export type BuildingBlockGroup = BuildingBlocksResponseDto['groups'][number];

/** How long typing must pause before the text is checked. */
export const CUSTOM_POSE_CHECK_DELAY_MS = 400;

export const customPoseApi = {
  check: (text: string, signal?: AbortSignal) => unwrap(checkCustomPose({ body: { text }, signal })),
  buildingBlocks: (signal?: AbortSignal) => unwrap(getCustomPoseBuildingBlocks({ signal })),
};

export const buildingBlocksQueryOptions = queryOptions({
  queryKey: ['custom-pose', 'building-blocks'] as const,
  queryFn: ({ signal }) => customPoseApi.buildingBlocks(signal),
  // they change with a release only
  staleTime: Infinity,
});

export const customPoseCheckQueryOptions = (text: string) =>
  queryOptions({
    queryKey: ['custom-pose', 'check', text] as const,
    queryFn: ({ signal }) => customPoseApi.check(text, signal),
    staleTime: 5 * 60_000,
  });

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with the first whole-word occurrence of `word` (any case) replaced by `replacement`;
 * the text unchanged when the word is not in it any more.
 */
export function replaceWord(text: string, word: string, replacement: string): string {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}'-])${escape(word)}(?![\\p{L}\\p{N}])`, 'iu');
  return text.replace(pattern, replacement);
}

/**
 * `text` with a building block added at its end: after a space for a place or the light ("on the
 * beach", "at sunset"), after a comma for the others; null when it would not fit in `max`.
 */
export function appendPhrase(text: string, phrase: string, group: string, max: number): string | null {
  const start = text.trimEnd().replace(/[.!]+$/, '');
  const joiner = start === '' ? '' : group === 'place' || group === 'light' || /[,;]$/.test(start) ? ' ' : ', ';
  const next = `${start}${joiner}${phrase}`;
  return next.length > max ? null : next;
}
