import { Alert, Box, Button, Container, Heading, HStack, Input, Link, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { errorMessage } from '@fitting-room/shared/browser';
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { FormField } from '../../components/FormField';
import { SUPPORT_EMAIL } from '../../config/app-config';
import { looksLikeEmail } from '../auth/email-shape';
import { useAuth } from '../auth/useAuth';
import { SUPPORT_RESPONSE_TIME } from '../legal/LegalPage';
import {
  CONTACT_LIMITS,
  generationIdFrom,
  INQUIRY_KIND_OPTIONS,
  type InquiryKind,
  REPORT_IMAGE,
  reportImageProblem,
  useSendInquiry,
} from './support-api';

interface Values {
  name: string;
  email: string;
  kind: InquiryKind;
  subject: string;
  message: string;
  generation: string;
  /** "Report an image": a copy of the image, checked when chosen */
  image: File | null;
}

type FieldName = keyof Values;
type FieldErrors = Partial<Record<FieldName, string>>;

function validate(values: Values): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  else if (values.name.trim().length > CONTACT_LIMITS.name) errors.name = `Name must be at most ${CONTACT_LIMITS.name} characters`;
  if (!values.email.trim()) errors.email = 'Email is required';
  else if (!looksLikeEmail(values.email)) errors.email = 'Please enter a valid email address';
  if (!values.subject.trim()) errors.subject = 'Subject is required';
  else if (values.subject.trim().length > CONTACT_LIMITS.subject)
    errors.subject = `Subject must be at most ${CONTACT_LIMITS.subject} characters`;
  if (!values.message.trim()) errors.message = 'Message is required';
  else if (values.message.trim().length > CONTACT_LIMITS.message)
    errors.message = `Message must be at most ${CONTACT_LIMITS.message} characters`;
  if (values.kind === 'abuse_report' && values.generation.trim() && !generationIdFrom(values.generation)) {
    errors.generation = "Paste the image's link or id as it appears in the address bar, or leave this empty";
  }
  return errors;
}

const ORDER: FieldName[] = ['name', 'email', 'kind', 'subject', 'message', 'generation', 'image'];

/** 2.4 MB, 830 kB: the size of a chosen file, for the person to recognise it. */
function fileSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/** The browser's "Choose file" button, in the app's look. */
const fileInputCss = {
  '&::file-selector-button': {
    marginInlineEnd: '0.75rem',
    paddingInline: '0.75rem',
    paddingBlock: '0.25rem',
    borderRadius: '0.375rem',
    border: '1px solid var(--chakra-colors-border)',
    background: 'var(--chakra-colors-bg-muted)',
    color: 'inherit',
    font: 'inherit',
    cursor: 'pointer',
  },
};

function kindFromSearch(value: string | null): InquiryKind {
  return INQUIRY_KIND_OPTIONS.some((o) => o.value === value) ? (value as InquiryKind) : 'question';
}

function Sent({ name, email, report, onAnother }: { name: string; email: string; report: boolean; onAnother: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Stack gap="5" role="status" aria-live="polite">
      <Heading ref={headingRef} tabIndex={-1} as="h1" fontSize={{ base: '3xl', md: '4xl' }} fontWeight="medium" outline="none">
        {report ? 'Report received' : 'Message sent'}
      </Heading>
      <Text fontSize="lg">
        Thank you, {name}. We answer within {SUPPORT_RESPONSE_TIME} at <strong>{email}</strong>.
      </Text>
      {report ? (
        <Text color="fg.muted">
          Reports of images start at high priority: we review them first and remove images that must go as quickly as we can.
        </Text>
      ) : null}
      <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
        <Button onClick={onAnother} variant="outline">
          Send another message
        </Button>
        <Button asChild>
          <RouterLink to={paths.home}>Back to home</RouterLink>
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * The public contact form (/contact): a question, a billing matter, or "Report an image" (an abuse
 * report, which starts at high priority, naming the image by its link or id, or by a copy of it sent
 * as multipart). Signed-in people find their name and email filled in.
 * `?kind=abuse_report&generation=<id>` opens it ready to report an image.
 */
export function ContactPage() {
  useDocumentTitle('Contact');
  const [search] = useSearchParams();
  const { user } = useAuth();
  const [values, setValues] = useState<Values>(() => ({
    name: user?.full_name ?? '',
    email: user?.email ?? '',
    kind: kindFromSearch(search.get('kind')),
    subject: '',
    message: '',
    generation: search.get('generation') ?? '',
    image: null,
  }));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [sent, setSent] = useState<{ name: string; email: string; report: boolean } | null>(null);
  const send = useSendInquiry();
  const errorRef = useRef<HTMLDivElement>(null);
  const refs: Record<FieldName, RefObject<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null>> = {
    name: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    kind: useRef<HTMLSelectElement>(null),
    subject: useRef<HTMLInputElement>(null),
    message: useRef<HTMLTextAreaElement>(null),
    generation: useRef<HTMLInputElement>(null),
    image: useRef<HTMLInputElement>(null),
  };
  // a preview of the chosen copy, so the person sees what they send
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!values.image) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(values.image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [values.image]);

  // The session arrives after the first render: fill in what the person has not typed yet.
  useEffect(() => {
    if (!user) return;
    setValues((v) => ({ ...v, name: v.name || user.full_name, email: v.email || user.email }));
  }, [user]);

  useEffect(() => {
    if (send.isError) errorRef.current?.focus();
  }, [send.isError, send.error]);

  const set = <K extends FieldName>(name: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (fieldErrors[name]) setFieldErrors((e) => ({ ...e, [name]: undefined }));
  };

  const chooseImage = (file: File | null) => {
    // the API's answer about the previous file no longer applies
    if (send.isError) send.reset();
    const problem = file ? reportImageProblem(file) : null;
    if (problem || !file) {
      // a refused file is not kept: the input is emptied and says why
      if (refs.image.current) refs.image.current.value = '';
      set('image', null);
      setFieldErrors((e) => ({ ...e, image: problem ?? undefined }));
      return;
    }
    set('image', file);
  };

  const removeImage = () => {
    chooseImage(null);
    refs.image.current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = validate(values);
    setFieldErrors(errors);
    const first = ORDER.find((f) => errors[f]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    const report = values.kind === 'abuse_report';
    const generationId = report ? generationIdFrom(values.generation) : null;
    send.mutate(
      {
        body: {
          name: values.name.trim(),
          email: values.email.trim(),
          kind: values.kind,
          subject: values.subject.trim(),
          message: values.message.trim(),
          ...(generationId ? { generation_id: generationId } : {}),
        },
        image: report ? values.image : null,
      },
      { onSuccess: () => setSent({ name: values.name.trim(), email: values.email.trim(), report }) },
    );
  };

  const another = () => {
    send.reset();
    setSent(null);
    setValues((v) => ({ ...v, kind: 'question', subject: '', message: '', generation: '', image: null }));
  };

  const report = values.kind === 'abuse_report';

  return (
    <Container maxW="2xl" py={{ base: '6', md: '12' }} px={{ base: '5', md: '8' }}>
      {sent ? (
        <Sent {...sent} onAnother={another} />
      ) : (
        <Stack gap="6">
          <Stack gap="2">
            <Heading as="h1" fontSize={{ base: '3xl', md: '5xl' }} fontWeight="medium" letterSpacing="tight" lineHeight="1.2">
              Contact us
            </Heading>
            <Text color="fg.muted">
              Questions, billing, or an image of you that should not exist: write to us here, or at{' '}
              <Link href={`mailto:${SUPPORT_EMAIL}`} colorPalette="brand" variant="underline">
                {SUPPORT_EMAIL}
              </Link>
              . We answer within {SUPPORT_RESPONSE_TIME}.
            </Text>
          </Stack>
          <form onSubmit={submit} noValidate aria-label="Contact form">
            <Stack gap="5">
              <Stack direction={{ base: 'column', md: 'row' }} gap="5">
                <FormField label="Name" required error={fieldErrors.name}>
                  <Input
                    ref={refs.name as RefObject<HTMLInputElement>}
                    name="name"
                    autoComplete="name"
                    maxLength={CONTACT_LIMITS.name}
                    value={values.name}
                    onChange={(e) => set('name', e.target.value)}
                  />
                </FormField>
                <FormField label="Email" required error={fieldErrors.email}>
                  <Input
                    ref={refs.email as RefObject<HTMLInputElement>}
                    name="email"
                    type="email"
                    inputMode="email"
                    autoComplete="email"
                    autoCapitalize="none"
                    spellCheck={false}
                    value={values.email}
                    onChange={(e) => set('email', e.target.value)}
                  />
                </FormField>
              </Stack>
              <FormField label="What is it about?" required>
                <NativeSelect.Root>
                  <NativeSelect.Field
                    ref={refs.kind as RefObject<HTMLSelectElement>}
                    name="kind"
                    value={values.kind}
                    onChange={(e) => set('kind', e.target.value as InquiryKind)}
                  >
                    {INQUIRY_KIND_OPTIONS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              {report ? (
                <Alert.Root status="info" data-testid="report-note">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>Reports start at high priority</Alert.Title>
                    <Alert.Description>
                      Tell us which image it is. We review reports first and remove images quickly; you do not need an account.
                    </Alert.Description>
                  </Alert.Content>
                </Alert.Root>
              ) : null}
              {report ? (
                <FormField
                  label="Image link or id (optional)"
                  error={fieldErrors.generation}
                  helperText="If you have the image's link, paste it here. Otherwise attach a copy of it below, or describe it in your message."
                >
                  <Input
                    ref={refs.generation as RefObject<HTMLInputElement>}
                    name="generation"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="https://…/generations/0b0f3c4e-…"
                    value={values.generation}
                    onChange={(e) => set('generation', e.target.value)}
                  />
                </FormField>
              ) : null}
              {report ? (
                <Stack gap="3">
                  <FormField
                    label="A copy of the image (optional)"
                    error={fieldErrors.image}
                    helperText={`${REPORT_IMAGE.hint}. Only have the picture (a download or a screenshot)? Attach it: we use it to find the image, show it only to the people handling your report, and delete it after the report is resolved.`}
                  >
                    <Input
                      ref={refs.image as RefObject<HTMLInputElement>}
                      type="file"
                      name="image"
                      accept={REPORT_IMAGE.types.join(',')}
                      h="auto"
                      py="2"
                      css={fileInputCss}
                      onChange={(e) => chooseImage(e.target.files?.[0] ?? null)}
                    />
                  </FormField>
                  {values.image && preview ? (
                    <HStack gap="3" data-testid="report-image">
                      <img
                        src={preview}
                        alt="The copy you attached"
                        width={64}
                        height={64}
                        style={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 8, flexShrink: 0 }}
                      />
                      <Text fontSize="sm" minW="0" flex="1" wordBreak="break-all">
                        {values.image.name} · {fileSize(values.image.size)}
                      </Text>
                      <Button size="sm" variant="outline" onClick={removeImage}>
                        Remove
                      </Button>
                    </HStack>
                  ) : null}
                </Stack>
              ) : null}
              <FormField label="Subject" required error={fieldErrors.subject}>
                <Input
                  ref={refs.subject as RefObject<HTMLInputElement>}
                  name="subject"
                  maxLength={CONTACT_LIMITS.subject}
                  value={values.subject}
                  onChange={(e) => set('subject', e.target.value)}
                />
              </FormField>
              <FormField
                label="Message"
                required
                error={fieldErrors.message}
                helperText={`${values.message.length} / ${CONTACT_LIMITS.message}`}
              >
                <Textarea
                  ref={refs.message as RefObject<HTMLTextAreaElement>}
                  name="message"
                  rows={7}
                  maxLength={CONTACT_LIMITS.message}
                  value={values.message}
                  onChange={(e) => set('message', e.target.value)}
                />
              </FormField>
              {send.isError ? (
                <Alert.Root
                  ref={errorRef}
                  status="error"
                  role="alert"
                  tabIndex={-1}
                  _focusVisible={{ outline: '2px solid', outlineColor: 'border.error' }}
                >
                  <Alert.Indicator />
                  <Alert.Title>{errorMessage(send.error)}</Alert.Title>
                </Alert.Root>
              ) : null}
              <Box>
                <Button type="submit" size="lg" w={{ base: 'full', sm: 'auto' }} loading={send.isPending} loadingText="Sending...">
                  {report ? 'Send report' : 'Send message'}
                </Button>
              </Box>
            </Stack>
          </form>
        </Stack>
      )}
    </Container>
  );
}
