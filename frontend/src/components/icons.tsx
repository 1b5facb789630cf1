import { Icon, type IconProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A 24x24 line icon in the current colour. Decorative: the control around it carries the label. */
function lineIcon(paths: ReactNode) {
  return function LineIcon(props: IconProps) {
    return (
      <Icon boxSize="4" aria-hidden {...props}>
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          {paths}
        </svg>
      </Icon>
    );
  };
}

export const DownloadIcon = lineIcon(
  <>
    <path d="M12 4v11" />
    <path d="m7 10 5 5 5-5" />
    <path d="M5 20h14" />
  </>,
);

export const TrashIcon = lineIcon(
  <>
    <path d="M4 7h16" />
    <path d="M9.5 7V4.5h5V7" />
    <path d="M6.5 7 7.5 20h9l1-13" />
    <path d="M10 11v5.5M14 11v5.5" />
  </>,
);

export const LockIcon = lineIcon(
  <>
    <rect x="5" y="11" width="14" height="9.5" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </>,
);

export const PlusIcon = lineIcon(<path d="M12 5v14M5 12h14" />);

export const CheckIcon = lineIcon(<path d="m5 12.5 4.5 4.5L19 7.5" />);

export const CloseIcon = lineIcon(<path d="M6 6l12 12M18 6 6 18" />);

export const UploadIcon = lineIcon(
  <>
    <path d="M12 16V5" />
    <path d="m7 9.5 5-5 5 5" />
    <path d="M4.5 15.5v3A1.5 1.5 0 0 0 6 20h12a1.5 1.5 0 0 0 1.5-1.5v-3" />
  </>,
);

export const SparkleIcon = lineIcon(
  <>
    <path d="M12 3.5 13.8 9l5.7 1.9-5.7 1.9L12 18.5l-1.8-5.7L4.5 11l5.7-1.9Z" />
    <path d="M19 3v3M17.5 4.5h3" />
  </>,
);

export const ChevronLeftIcon = lineIcon(<path d="m14.5 6-6 6 6 6" />);

export const ChevronRightIcon = lineIcon(<path d="m9.5 6 6 6-6 6" />);

export const ShareIcon = lineIcon(
  <>
    <path d="M12 15V4" />
    <path d="m7.5 8.5 4.5-4.5 4.5 4.5" />
    <path d="M5 12.5V19a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-6.5" />
  </>,
);

export const FlagIcon = lineIcon(
  <>
    <path d="M5.5 21V4" />
    <path d="M5.5 4.5h11l-2 4 2 4h-11" />
  </>,
);

export const BagIcon = lineIcon(
  <>
    <path d="M5 8h14l-1 12H6Z" />
    <path d="M9 10V7a3 3 0 0 1 6 0v3" />
  </>,
);

export const PlayIcon = lineIcon(<path d="M8 5.5v13l10.5-6.5Z" />);
