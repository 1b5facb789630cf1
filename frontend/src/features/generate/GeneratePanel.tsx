import {
  Box,
  Button,
  Card,
  chakra,
  Heading,
  HStack,
  Link,
  SegmentGroup,
  SimpleGrid,
  Spinner,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { CheckIcon } from '../../components/icons';
import { notify, TOAST_CLEARANCE } from '../../components/toaster';
import { useAuth } from '../auth/useAuth';
import {
  type Catalog,
  categoryScenes,
  formatCredits,
  generationCost,
  type GenerationType,
  type PoseChoice,
} from '../catalog/catalog-helpers';
import { CatalogPicture } from '../catalog/CatalogPicture';
import { ResendLink, useEmailVerified, VERIFY_FIRST } from '../dashboard/VerifyEmailBanner';
import { FaceGateDialogs } from '../faces/FaceGateDialogs';
import { useFaceGate } from '../faces/useFaceGate';
import { generationApi } from '../generations/generation-api';
import { PreviewModeLine } from '../health/PreviewModeNote';
import { usePreviewOnly } from '../health/useApiStatus';
import { checklistReady, generateChecklist } from './generate-checklist';
import { checklistItemId, GenerateChecklist } from './GenerateChecklist';
import { screenPhotos } from './photo-rules';
import { PhotoPicker, type PhotoEntry } from './PhotoPicker';
import { PosePicker } from './PosePicker';
import { uploadUsageQueryKey, uploadUsageQueryOptions, usageLine } from './upload-usage';
import { useGenerationRunner } from './useGenerationRunner';
import type { Refusal } from './generation-runner';
import type { CatalogCategoryDto, CatalogTemplateDto } from '@fitting-room/api-client';

interface GeneratePanelProps {
  catalog: Catalog;
  category: CatalogCategoryDto;
  template: CatalogTemplateDto;
  /** The user's balance, when known. */
  credits: number | undefined;
  /** The id of the heading of the category's generations, to point at the new result. */
  resultsHeadingId: string;
}

let photoKeys = 0;

/** The photos of this panel, with their previews (object URLs released when a photo goes). */
function usePhotos() {
  const queryClient = useQueryClient();
  const [photos, setPhotos] = useState<PhotoEntry[]>([]);
  const live = useRef(photos);
  live.current = photos;
  useEffect(() => () => live.current.forEach((photo) => URL.revokeObjectURL(photo.previewUrl)), []);

  const add = (files: File[]) =>
    setPhotos((current) => [
      ...current,
      ...files.map((file) => ({ key: `photo-${++photoKeys}`, file, previewUrl: URL.createObjectURL(file) })),
    ]);
  const remove = (key: string) => {
    const gone = live.current.find((photo) => photo.key === key);
    if (!gone) return;
    URL.revokeObjectURL(gone.previewUrl);
    // Uploaded already: removed from the server too (privacy); if that fails, the 30-day cleanup takes it.
    if (gone.uploadId) {
      generationApi
        .removePhoto(gone.uploadId)
        .then(() => queryClient.invalidateQueries({ queryKey: uploadUsageQueryKey }))
        .catch(() => undefined);
    }
    setPhotos((current) => current.filter((photo) => photo.key !== key));
  };
  const markUploaded = (ids: Map<File, string>) =>
    setPhotos((current) => current.map((photo) => (ids.has(photo.file) ? { ...photo, uploadId: ids.get(photo.file) } : photo)));
  return { photos, add, remove, markUploaded };
}

/** In place of the upload area while the address is unconfirmed: the reason, and Resend. */
function VerifyFirst({ email, id }: { email: string; id: string }) {
  return (
    <Stack id={id} role="note" gap="3" p="5" borderWidth="1px" borderStyle="dashed" borderColor="border" borderRadius="xl" bg="bg.subtle">
      <Text fontWeight="medium">{VERIFY_FIRST}</Text>
      <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
        Open the link we sent to <chakra.strong color="fg">{email}</chakra.strong>, then come back here.
      </Text>
      <ResendLink />
    </Stack>
  );
}

/**
 * Under the photos: why the last upload was refused (the API's message: hourly quota, size,
 * storage, busy), and a calm line of the upload allowance used.
 */
function UploadStatus({ error, usage }: { error: string | null; usage: string | null }) {
  if (!error && !usage) return null;
  return (
    <Stack gap="1">
      {error ? (
        <Text role="alert" fontSize="sm" color="fg.error">
          {error}
        </Text>
      ) : null}
      {usage ? (
        <Text fontSize="xs" color="fg.muted" data-upload-usage="">
          {usage}
        </Text>
      ) : null}
    </Stack>
  );
}

/** "Step" headings of the panel's columns. */
function StepHeading({ id, children }: { id: string; children: string }) {
  return (
    <Heading
      id={id}
      as="h3"
      fontFamily="body"
      fontSize="xs"
      fontWeight="semibold"
      textTransform="uppercase"
      letterSpacing="wider"
      color="fg.muted"
    >
      {children}
    </Heading>
  );
}

/**
 * "Generate Your Look" (docs/product.md): photos, pose, type and cost, and the Generate button
 * that shows the live stage while the generation runs, with Cancel beside it.
 */
export function GeneratePanel({ catalog, category, template, credits, resultsHeadingId }: GeneratePanelProps) {
  const { state, start, cancel } = useGenerationRunner();
  const { photos, add, remove, markUploaded } = usePhotos();
  const [confirmed, setConfirmed] = useState(false);
  const confirmRef = useRef<HTMLInputElement>(null);
  const [pose, setPose] = useState<PoseChoice>(null);
  const [customPose, setCustomPose] = useState('');
  const [type, setType] = useState<GenerationType>('image');
  /** The API's refusal of the last Generate, before anything started (nothing uploaded at a check refusal). */
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const ids = {
    photos: useId(),
    pose: useId(),
    type: useId(),
    typeHint: useId(),
    verify: useId(),
    refusal: useId(),
    preview: useId(),
    checklist: useId(),
    checklistHeading: useId(),
  };
  const previewOnly = usePreviewOnly();
  const { user } = useAuth();
  const verified = useEmailVerified();
  const usage = useQuery({ ...uploadUsageQueryOptions, enabled: verified });
  // "Only you": the consent before the first photo check, the live selfie when the API asks for it
  const faceGate = useFaceGate(verified);

  const scenes = useMemo(() => categoryScenes(catalog, category), [catalog, category]);
  const running = state.phase === 'running';
  const videoOffered = catalog.features.video;
  const canVideo = catalog.viewer.canGenerateVideo;
  const cost = generationCost(catalog, pose, type);
  const needsConfirmation = photos.some((photo) => !photo.uploadId);
  // what Generate needs, said before the click; the button waits until every line is done
  const checklist = generateChecklist({
    templateName: template.name,
    verified,
    photos: photos.length,
    needsConfirmation,
    confirmed,
    pose,
    customPose,
    sceneName: pose?.kind === 'scene' ? (scenes.find((scene) => scene.id === pose.sceneId)?.name ?? null) : null,
    cost,
    credits,
    pricingPath: paths.pricing,
  });
  const ready = checklistReady(checklist);
  const todoIds = checklist.filter((item) => !item.done).map((item) => checklistItemId(ids.checklist, item));
  const completedHere = state.phase === 'completed' && state.category === category.id;
  const checkRefusal = refusal?.step === 'check' ? refusal.message : null;
  const uploadRefusal = refusal?.step === 'upload' ? refusal.message : null;

  // A refusal is about the choice it was given: a new choice clears it (a new photo clears the upload's).
  const clearRefusal = (step: Refusal['step']) => setRefusal((current) => (current?.step === step ? null : current));
  const choosePose = (next: PoseChoice) => {
    setPose(next);
    clearRefusal('check');
  };
  const describePose = (text: string) => {
    setCustomPose(text);
    clearRefusal('check');
  };
  const chooseType = (next: GenerationType) => {
    setType(next);
    clearRefusal('check');
  };
  const removePhoto = (key: string) => {
    remove(key);
    clearRefusal('upload');
  };

  // A video choice does not survive a catalogue in which video is not allowed.
  useEffect(() => {
    if (type === 'video' && !canVideo) setType('image');
  }, [type, canVideo]);

  const addPhotos = async (files: File[]) => {
    const { accepted, error } = await screenPhotos(files, photos.length);
    if (error) notify.error({ title: error });
    if (accepted.length === 0) return;
    add(accepted);
    clearRefusal('upload');
    // A new batch is confirmed anew (DECISIONS.md: once per upload batch).
    setConfirmed(false);
  };

  const onConfirmedChange = (checked: boolean) => setConfirmed(checked);

  const generate = async () => {
    if (running) {
      console.warn('A generation is already running: this click is ignored.');
      return;
    }
    // not ready: the button is disabled, and the checklist beside it says what is missing
    if (!ready || !pose) return;
    if (!(await faceGate.ensureConsent())) return;
    setRefusal(null);
    start({
      photos: photos.map((photo) => ({ file: photo.file, uploadId: photo.uploadId })),
      type,
      category: category.id,
      templateId: template.id,
      pose: pose.kind === 'scene' ? { sceneId: pose.sceneId } : { customPose: customPose.trim() },
      onUploaded: markUploaded,
      onRefused: (next) => {
        setRefusal(next);
        faceGate.onRefused(next.code, () => void generateRef.current());
      },
    });
  };
  // the retry after the selfie runs with the photos as they are then (uploaded: not sent again)
  const generateRef = useRef(generate);
  generateRef.current = generate;

  const typeLabel = type === 'video' ? 'Video' : 'Image';
  const stage = running ? state.stage : null;

  // A run starts: its controls (the stage, Cancel) come fully into view and above the toast area at
  // the bottom of the screen, where "Generation started successfully" is about to show (docs/generations.md).
  const actionsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (running) actionsRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [running]);

  return (
    <Card.Root as="section" aria-labelledby="generate-heading" variant="outline" bg="bg.panel" boxShadow="sm">
      <Card.Header pb="0">
        <HStack gap="4" align="center">
          <CatalogPicture src={template.thumbnail} w="12" h="16" borderRadius="md" bg="bg.muted" flexShrink="0" />
          <Stack gap="0.5" minW="0">
            <Heading id="generate-heading" as="h2" fontFamily="heading" fontWeight="medium" fontSize={{ base: 'xl', md: '2xl' }}>
              Generate Your Look
            </Heading>
            <Text fontSize="sm" color="fg.muted" truncate>
              Template:{' '}
              <chakra.span color="fg" fontWeight="medium">
                {template.name}
              </chakra.span>
            </Text>
          </Stack>
        </HStack>
      </Card.Header>
      <Card.Body>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap={{ base: '8', md: '10' }}>
          <Stack gap="3" role="group" aria-labelledby={ids.photos}>
            <StepHeading id={ids.photos}>1 · Your photos</StepHeading>
            {verified ? (
              <PhotoPicker
                photos={photos}
                onAdd={(files) => void addPhotos(files)}
                onRemove={removePhoto}
                confirmed={confirmed}
                onConfirmedChange={onConfirmedChange}
                confirmError={null}
                confirmRef={confirmRef}
                disabled={running}
              />
            ) : (
              <VerifyFirst email={user?.email ?? ''} id={ids.verify} />
            )}
            {verified ? <UploadStatus error={uploadRefusal} usage={usage.data ? usageLine(usage.data) : null} /> : null}
          </Stack>

          <Stack gap="6">
            <Stack gap="3">
              <StepHeading id={ids.pose}>2 · Pose</StepHeading>
              <PosePicker
                catalog={catalog}
                scenes={scenes}
                pose={pose}
                onPoseChange={choosePose}
                customPose={customPose}
                onCustomPoseChange={describePose}
                customPoseHint={category.customPoseHint}
                customPoseNotUnderstood={refusal?.step === 'check' ? refusal.notUnderstood : undefined}
                disabled={running}
                labelId={ids.pose}
              />
            </Stack>

            {videoOffered ? (
              <Stack gap="2">
                <StepHeading id={ids.type}>3 · Type</StepHeading>
                <SegmentGroup.Root
                  aria-labelledby={ids.type}
                  aria-describedby={canVideo ? undefined : ids.typeHint}
                  value={type}
                  onValueChange={(details) => chooseType(details.value === 'video' ? 'video' : 'image')}
                  disabled={running}
                  size="md"
                  alignSelf="flex-start"
                >
                  <SegmentGroup.Indicator bg="bg.panel" />
                  <SegmentGroup.Items
                    items={[
                      { value: 'image', label: 'Image' },
                      { value: 'video', label: 'Video', disabled: !canVideo },
                    ]}
                    px="5"
                  />
                </SegmentGroup.Root>
                {canVideo ? null : (
                  <Text id={ids.typeHint} fontSize="sm" color="fg.muted">
                    Video try-on is not included in your plan.{' '}
                    <Link asChild color="brand.fg" fontWeight="medium">
                      <RouterLink to={paths.pricing}>See the plans</RouterLink>
                    </Link>
                  </Text>
                )}
              </Stack>
            ) : null}

            <Stack gap="3" pt="4" borderTopWidth="1px" borderColor="border.muted">
              <HStack justify="space-between" align="baseline" wrap="wrap" gap="2">
                <Text fontWeight="semibold" fontSize="lg">
                  {cost === null ? 'Cost: choose a pose' : `Cost: ${formatCredits(cost)}`}
                </Text>
                {credits !== undefined ? (
                  <Text fontSize="sm" color="fg.muted">
                    You have {formatCredits(credits)}
                  </Text>
                ) : null}
              </HStack>
              {catalog.viewer.watermarked ? (
                <Text fontSize="sm" color="fg.muted">
                  Free plan results carry a visible watermark.{' '}
                  <Link asChild color="brand.fg" fontWeight="medium">
                    <RouterLink to={paths.pricing}>Remove it with a paid plan</RouterLink>
                  </Link>
                </Text>
              ) : null}
              {previewOnly ? <PreviewModeLine id={ids.preview} /> : null}
              {running ? null : <GenerateChecklist items={checklist} idPrefix={ids.checklist} headingId={ids.checklistHeading} />}
              {checkRefusal ? (
                <Text id={ids.refusal} role="alert" fontSize="sm" color="fg.error">
                  {checkRefusal}
                </Text>
              ) : null}
              <Stack
                ref={actionsRef}
                direction={{ base: 'column', sm: 'row' }}
                gap="2"
                css={{ scrollMarginBottom: TOAST_CLEARANCE, scrollMarginTop: '5rem' }}
              >
                <Button
                  size="lg"
                  // a row from `sm` up: the button takes the room Cancel leaves (in a column, flex would squash it)
                  flex={{ sm: '1' }}
                  minW="0"
                  onClick={() => void generate()}
                  aria-describedby={
                    [
                      ...(running ? [] : todoIds),
                      verified ? (checkRefusal ? ids.refusal : null) : ids.verify,
                      previewOnly ? ids.preview : null,
                    ]
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  data-generate-button=""
                  // aria-disabled, not disabled: the button stays focusable, and a screen reader hears what is missing
                  aria-disabled={running || !ready || undefined}
                  data-busy={running || undefined}
                  // busy: the stage stays readable and a second click is ignored
                  _disabled={running ? { opacity: 1, cursor: 'progress' } : { opacity: 0.5, cursor: 'not-allowed' }}
                  // the stage wraps on a narrow screen instead of being cut ("Processing (this may take 1...")
                  h="auto"
                  minH="11"
                  py="2"
                  whiteSpace="normal"
                >
                  {running ? (
                    <>
                      <Spinner size="sm" borderWidth="2px" flexShrink="0" />
                      <chakra.span minW="0" textAlign="start" data-generate-stage="">
                        {stage}
                      </chakra.span>
                    </>
                  ) : (
                    `Generate ${typeLabel}`
                  )}
                </Button>
                {running ? (
                  <Button size="lg" variant="outline" onClick={cancel}>
                    Cancel
                  </Button>
                ) : null}
              </Stack>
              <VisuallyHidden role="status" aria-live="polite">
                {stage ?? (completedHere ? state.stage : '')}
              </VisuallyHidden>
              {completedHere ? (
                <HStack gap="2" color="green.700" fontSize="sm" fontWeight="medium">
                  <CheckIcon />
                  <Text>
                    Complete! Your new look is in{' '}
                    <Link href={`#${resultsHeadingId}`} color="brand.fg" textDecoration="underline">
                      Your {category.label} Generations
                    </Link>
                    .
                  </Text>
                </HStack>
              ) : null}
              {running && state.category !== category.id ? (
                <Box fontSize="sm" color="fg.muted">
                  A generation is running. You can start another when it has finished.
                </Box>
              ) : null}
            </Stack>
          </Stack>
        </SimpleGrid>
      </Card.Body>
      <FaceGateDialogs gate={faceGate} />
    </Card.Root>
  );
}
