import { Box, Button, Dialog, Portal, Progress, Stack, Text } from '@chakra-ui/react';
import { errorMessage, isAbortError } from '@fitting-room/shared/browser';
import { useEffect, useRef, useState } from 'react';
import { FormAlert } from '../../components/FormAlert';
import { notify } from '../../components/toaster';
import { useOutsideDismissGuard } from '../../components/useOutsideDismissGuard';
import { facesApi, type SelfieChallenge } from './faces-api';
import { cameraProblem, captureFrames, grabFrame, SELFIE_CAMERA, turnInstruction } from './selfie-capture';

interface SelfieDialogProps {
  open: boolean;
  onClose(verified: boolean): void;
}

type Phase =
  | { kind: 'intro' }
  | { kind: 'starting' }
  | { kind: 'ready' }
  | { kind: 'capturing'; challenge: SelfieChallenge; taken: number }
  | { kind: 'checking' }
  | { kind: 'failed'; message: string; cameraOn: boolean };

export const SELFIE_VERIFIED_MESSAGE = 'Thanks, it’s really you. Your photos are verified.';

/**
 * "It's really you" (docs/safety.md "Only you"): a selfie taken live with the camera (never a file),
 * with a head turn asked by the server. The camera's frames (12, 450 ms apart, as the challenge
 * says) go to our server as JPEGs, are judged there and never kept.
 */
export function SelfieDialog({ open, onClose }: SelfieDialogProps) {
  const dismissGuard = useOutsideDismissGuard();
  const [phase, setPhase] = useState<Phase>({ kind: 'intro' });
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  const stopCamera = () => {
    abortRef.current?.abort();
    abortRef.current = null;
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
  };

  // a closed dialog lets go of the camera, and starts afresh next time
  useEffect(() => {
    if (!open) {
      stopCamera();
      setPhase({ kind: 'intro' });
    }
    return undefined;
  }, [open]);
  useEffect(() => stopCamera, []);

  const turnOnCamera = async () => {
    setPhase({ kind: 'starting' });
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('no camera API', 'NotFoundError');
      const stream = await navigator.mediaDevices.getUserMedia(SELFIE_CAMERA);
      streamRef.current = stream;
      const video = videoRef.current;
      if (video) {
        video.srcObject = stream;
        await video.play().catch(() => undefined);
      }
      setPhase({ kind: 'ready' });
    } catch (error) {
      setPhase({ kind: 'failed', message: cameraProblem(error), cameraOn: false });
    }
  };

  const takeSelfie = async () => {
    const video = videoRef.current;
    if (!video) return;
    const abort = new AbortController();
    abortRef.current = abort;
    try {
      const challenge = await facesApi.challenge();
      setPhase({ kind: 'capturing', challenge, taken: 0 });
      canvasRef.current ??= document.createElement('canvas');
      const canvas = canvasRef.current;
      const frames = await captureFrames(() => grabFrame(video, canvas), {
        frames: challenge.frames,
        intervalMs: challenge.interval_ms,
        signal: abort.signal,
        onFrame: (taken) => setPhase({ kind: 'capturing', challenge, taken }),
      });
      setPhase({ kind: 'checking' });
      await facesApi.verify(challenge.id, frames);
      stopCamera();
      notify.success({ title: SELFIE_VERIFIED_MESSAGE });
      onClose(true);
    } catch (error) {
      if (isAbortError(error)) return;
      setPhase({ kind: 'failed', message: errorMessage(error), cameraOn: streamRef.current !== null });
    }
  };

  const cameraOn =
    phase.kind === 'ready' || phase.kind === 'capturing' || phase.kind === 'checking' || (phase.kind === 'failed' && phase.cameraOn);
  const busy = phase.kind === 'starting' || phase.kind === 'capturing' || phase.kind === 'checking';

  return (
    <Dialog.Root
      onInteractOutside={dismissGuard.onInteractOutside}
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose(false);
      }}
      placement="center"
      size="md"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content ref={dismissGuard.contentRef} data-selfie-dialog="">
            <Dialog.Header>
              <Dialog.Title fontFamily="heading" fontWeight="medium" fontSize="xl">
                It’s really you: a live selfie
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Dialog.Description color="fg.muted">
                  Before your first lingerie or spicy look, and before any video, we check that the person in the photos is the one in front
                  of the camera. It takes 5 seconds: look at the camera, turn your head as asked, then back. The pictures are checked on our
                  servers and not kept.
                </Dialog.Description>
                <Box
                  position="relative"
                  bg="bg.muted"
                  borderRadius="lg"
                  overflow="hidden"
                  aspectRatio="4 / 3"
                  display={cameraOn ? 'block' : 'none'}
                >
                  {/* mirrored, as people expect to see themselves; the frames sent are the camera's own */}
                  <video
                    ref={videoRef}
                    muted
                    playsInline
                    aria-label="Your camera"
                    style={{ width: '100%', height: '100%', objectFit: 'cover', transform: 'scaleX(-1)' }}
                  />
                </Box>
                {phase.kind === 'capturing' ? (
                  <Stack gap="2" role="status" aria-live="polite">
                    <Text fontWeight="semibold" fontSize="lg" data-selfie-turn={phase.challenge.turn}>
                      {turnInstruction(phase.challenge.turn)}
                    </Text>
                    <Progress.Root value={(phase.taken / phase.challenge.frames) * 100} size="sm" aria-label="Selfie progress">
                      <Progress.Track>
                        <Progress.Range />
                      </Progress.Track>
                    </Progress.Root>
                  </Stack>
                ) : null}
                {phase.kind === 'checking' ? (
                  <Text role="status" color="fg.muted">
                    Checking...
                  </Text>
                ) : null}
                {phase.kind === 'failed' ? <FormAlert>{phase.message}</FormAlert> : null}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => onClose(false)}>
                Not now
              </Button>
              {cameraOn ? (
                <Button onClick={() => void takeSelfie()} loading={busy} loadingText="Hold on...">
                  {phase.kind === 'failed' ? 'Try again' : 'Start'}
                </Button>
              ) : (
                <Button onClick={() => void turnOnCamera()} loading={busy} loadingText="Starting the camera...">
                  Turn on the camera
                </Button>
              )}
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
