import { createSupportInquiry, type SupportInquiryCreateDto, type SupportInquiryCreatedDto } from '@fitting-room/api-client';
import { unwrap } from '@fitting-room/shared/browser';
import { useMutation } from '@tanstack/react-query';
import { PHOTO_MESSAGES, PHOTO_RULES } from '../generate/photo-rules';

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

/**
 * "Report an image" may carry a copy of the image (the multipart field `image`), which the API
 * matches against stored results by the generation id in its metadata or by its picture, and never
 * stores. Its limits are the API's photo limits (UPLOAD_LIMITS): the same formats and size, and the
 * same words when a file is refused.
 */
export const REPORT_IMAGE = {
  field: 'image',
  types: PHOTO_RULES.types,
  maxBytes: PHOTO_RULES.maxBytes,
  /** "JPEG, PNG or WebP, under 10MB" */
  hint: `JPEG, PNG or WebP, under ${PHOTO_RULES.maxBytes / (1024 * 1024)}MB`,
} as const;

/** The copy chosen, checked as the API will: null when it may be sent, else the API's words. */
export function reportImageProblem(file: File): string | null {
  if (!(REPORT_IMAGE.types as readonly string[]).includes(file.type)) return PHOTO_MESSAGES.notAnImage;
  if (file.size >= REPORT_IMAGE.maxBytes) return PHOTO_MESSAGES.tooLarge;
  return null;
}

/** The fields, then the file, as `multipart/form-data` (the browser sets the boundary). */
function multipart(body: unknown): FormData {
  const form = new FormData();
  const entries = Object.entries(body as Record<string, unknown>).filter(([, value]) => value !== undefined && value !== null);
  for (const [key, value] of entries) if (!(value instanceof Blob)) form.append(key, String(value));
  for (const [key, value] of entries) if (value instanceof Blob) form.append(key, value, value instanceof File ? value.name : key);
  return form;
}

export interface InquiryToSend {
  body: SupportInquiryCreateDto;
  /** with kind abuse_report: a copy of the reported image */
  image?: File | null;
}

/** POST /api/support/inquiries (public; a signed-in sender is linked to the ticket by the bearer token). */
export function useSendInquiry() {
  return useMutation({
    mutationFn: ({ body, image }: InquiryToSend): Promise<SupportInquiryCreatedDto> =>
      unwrap(
        image
          ? createSupportInquiry({
              // the typed client knows the JSON body; the multipart one adds the file
              body: { ...body, [REPORT_IMAGE.field]: image } as SupportInquiryCreateDto,
              bodySerializer: multipart,
              headers: { 'Content-Type': null },
            })
          : createSupportInquiry({ body }),
      ),
  });
}
