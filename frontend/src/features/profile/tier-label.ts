import type { ProfileResponseDto } from '@fitting-room/api-client';

/**
 * A tier's name for people: "glow_up" -> "Glow Up". The catalogue's plans carry display names;
 * until the app reads them (subscription screen), this keeps the raw id out of sight.
 */
export function tierLabel(tier: ProfileResponseDto['tier']): string {
  return tier
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
