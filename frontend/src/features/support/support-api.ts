import { createSupportInquiry, type SupportInquiryCreateDto, type SupportInquiryCreatedDto } from '@fitting-room/api-client';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';

export type InquiryKind = NonNullable<SupportInquiryCreateDto['kind']>;

/** The kinds a person can choose, in the order shown. */
export const INQUIRY_KIND_OPTIONS: { value: InquiryKind; label: string }[] = [
  { value: 'question', label: 'Question' },
  { value: 'billing', label: 'Billing' },
  { value: 'abuse_report', label: 'Report an image' },
];

/** The API's limits of the contact form (SupportInquiryCreateDto). */
export const CONTACT_LIMITS = { name: 100, subject: 200, message: 5000 } as const;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The generation id in what a person pasted: the id itself or a link that contains it; null when none. */
export function generationIdFrom(text: string): string | null {
  return UUID.exec(text)?.[0].toLowerCase() ?? null;
}

/** POST /api/support/inquiries (public; a signed-in sender is linked to the ticket by the bearer token). */
export function useSendInquiry() {
  return useMutation({
    mutationFn: (body: SupportInquiryCreateDto): Promise<SupportInquiryCreatedDto> => unwrap(createSupportInquiry({ body })),
  });
}
