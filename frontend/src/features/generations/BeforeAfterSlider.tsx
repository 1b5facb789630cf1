import { Box, chakra, Circle } from '@chakra-ui/react';
import { type KeyboardEvent, type PointerEvent, type SyntheticEvent, useRef, useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/icons';
import { RESULT_HEIGHT, RESULT_WIDTH } from './GenerationCard';

/** How far one press of an arrow key moves the divider, and one press of Page Up / Page Down (percent). */
export const SLIDER_STEP = 5;
export const SLIDER_PAGE_STEP = 20;

interface BeforeAfterSliderProps {
  /** the person's own photo (a signed, short-lived link) */
  before: string;
  /** the result */
  after: string;
  beforeAlt: string;
  afterAlt: string;
  /** the photo's link failed (expired, or the photo was deleted meanwhile): the viewer shows the result alone */
  onBeforeError(): void;
  onAfterError(): void;
}

const clamp = (value: number) => Math.min(100, Math.max(0, Math.round(value)));

const imageCss = {
  position: 'absolute',
  inset: 0,
  width: '100%',
  height: '100%',
  objectFit: 'contain',
  userSelect: 'none',
  pointerEvents: 'none',
} as const;

/** Where the divider rests when the viewer opens: 0, the result whole (its own "PREVIEW - NOT AI" label readable); the person drags their photo in. */
export const SLIDER_START = 0;

/**
 * Before and after: the result, with the person's photo over its left part up to a divider, which
 * a mouse or a finger drags (or a click or tap places) and the keyboard moves (arrows, Page Up/Down,
 * Home, End). The divider is an ARIA slider: "how much of your photo is shown". A horizontal swipe
 * that does not start on the divider is left to the viewer (the next or previous result).
 *
 * The comparison box is the result's own frame (its shape, as large as the stage allows), so the
 * divider's whole range moves over the picture, never over the empty margin beside it. It opens on
 * the result whole (SLIDER_START): nothing of the person's photo lies over the result's own label
 * until the person drags the divider.
 */
export function BeforeAfterSlider({ before, after, beforeAlt, afterAlt, onBeforeError, onAfterError }: BeforeAfterSliderProps) {
  const [position, setPosition] = useState(SLIDER_START);
  // the result's shape: the product's output size until the picture has loaded
  const [ratio, setRatio] = useState(RESULT_WIDTH / RESULT_HEIGHT);
  const box = useRef<HTMLDivElement>(null);
  const onAfterLoad = (event: SyntheticEvent<HTMLImageElement>) => {
    const { naturalWidth, naturalHeight } = event.currentTarget;
    if (naturalWidth > 0 && naturalHeight > 0) setRatio(naturalWidth / naturalHeight);
  };
  const tap = useRef<{ id: number; x: number; y: number } | null>(null);

  const positionAt = (clientX: number) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return position;
    return clamp(((clientX - rect.left) / rect.width) * 100);
  };

  // Dragging the divider: the pointer is captured, so the drag goes on outside the picture.
  const onHandleDown = (event: PointerEvent<HTMLDivElement>) => {
    event.stopPropagation(); // not a swipe, nor a tap on the picture
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.currentTarget.focus();
    setPosition(positionAt(event.clientX));
  };
  const onHandleMove = (event: PointerEvent<HTMLDivElement>) => {
    if (event.currentTarget.hasPointerCapture?.(event.pointerId)) setPosition(positionAt(event.clientX));
  };

  // A click or tap on the picture places the divider there; a longer move is a swipe, the viewer's.
  const onPictureDown = (event: PointerEvent<HTMLDivElement>) => {
    tap.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
  };
  const onPictureUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = tap.current;
    tap.current = null;
    if (!start || start.id !== event.pointerId) return;
    if (Math.abs(event.clientX - start.x) < 8 && Math.abs(event.clientY - start.y) < 8) setPosition(positionAt(event.clientX));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, (p: number) => number> = {
      ArrowLeft: (p) => p - SLIDER_STEP,
      ArrowDown: (p) => p - SLIDER_STEP,
      ArrowRight: (p) => p + SLIDER_STEP,
      ArrowUp: (p) => p + SLIDER_STEP,
      PageDown: (p) => p - SLIDER_PAGE_STEP,
      PageUp: (p) => p + SLIDER_PAGE_STEP,
      Home: () => 0,
      End: () => 100,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation(); // the arrows move the divider here, not to the next result
    setPosition((p) => clamp(move(p)));
  };

  return (
    // the stage is a size container: the box below takes the result's shape, as large as fits
    <Box w="full" h="full" display="flex" alignItems="center" justifyContent="center" css={{ containerType: 'size' }}>
      <Box
        ref={box}
        position="relative"
        flexShrink="0"
        style={{ width: `min(100cqw, calc(100cqh * ${ratio}))`, height: `min(100cqh, calc(100cqw / ${ratio}))` }}
        onPointerDown={onPictureDown}
        onPointerUp={onPictureUp}
        onPointerCancel={() => (tap.current = null)}
        data-before-after=""
      >
        <chakra.img src={after} alt={afterAlt} css={imageCss} draggable={false} onLoad={onAfterLoad} onError={onAfterError} />
        <chakra.img
          src={before}
          alt={beforeAlt}
          // the photo fills the result's frame, so the two line up along the divider
          css={{ ...imageCss, objectFit: 'cover' }}
          draggable={false}
          style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}
          onError={onBeforeError}
          data-before=""
        />
        <Box
          role="slider"
          tabIndex={0}
          aria-label="Your photo and the result"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={position}
          aria-valuetext={`${position}% your photo, ${100 - position}% the result`}
          aria-orientation="horizontal"
          position="absolute"
          top="0"
          bottom="0"
          left={`${position}%`}
          w="12"
          ms="-6"
          cursor="ew-resize"
          touchAction="none"
          display="flex"
          justifyContent="center"
          alignItems="center"
          onPointerDown={onHandleDown}
          onPointerMove={onHandleMove}
          onKeyDown={onKeyDown}
          outline="none"
          css={{ '&:focus-visible > [data-grip]': { outline: '3px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' } }}
          data-slider-handle=""
        >
          <Box aria-hidden position="absolute" top="0" bottom="0" w="0.5" bg="white" boxShadow="0 0 0 1px rgba(0,0,0,0.35)" />
          <Circle
            data-grip=""
            aria-hidden
            size="10"
            bg="white"
            color="fg"
            boxShadow="md"
            position="relative"
            borderWidth="1px"
            borderColor="border"
            // at either end the grip stays whole on the picture, beside the line
            transform={position < 8 ? 'translateX(1.25rem)' : position > 92 ? 'translateX(-1.25rem)' : undefined}
          >
            <ChevronLeftIcon boxSize="3.5" />
            <ChevronRightIcon boxSize="3.5" />
          </Circle>
        </Box>
      </Box>
    </Box>
  );
}
