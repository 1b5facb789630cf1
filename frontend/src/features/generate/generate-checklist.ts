import { plural } from '@fitting-room/shared';
import { formatCredits, type PoseChoice } from '../catalog/catalog-helpers';

/**
 * What Generate needs, said before the click (docs/product.md, "Generate says what is missing"):
 * one line per need, done or still to do, beside the button, which stays disabled while a line is
 * to do. The credit line is the panel's one word on credits.
 */
export interface ChecklistItem {
  /** stable: the element's id is built from it (the button names the lines to do with aria-describedby) */
  key: string;
  done: boolean;
  text: string;
  /** a way to do it, when it is elsewhere (more credits) */
  link?: { label: string; to: string } | undefined;
}

export interface ChecklistInput {
  templateName: string;
  /** the address is confirmed (uploading needs it) */
  verified: boolean;
  photos: number;
  /** photos added here and not uploaded yet need the confirmation; uploaded ones were confirmed */
  needsConfirmation: boolean;
  confirmed: boolean;
  pose: PoseChoice;
  customPose: string;
  /** the chosen scene's name */
  sceneName: string | null;
  /** credits of the choice: null until a pose is chosen */
  cost: number | null;
  /** the balance: undefined until known */
  credits: number | undefined;
  /** where more credits are */
  pricingPath: string;
}

export const CHECKLIST_TEXT = {
  verify: 'Confirm your email address',
  photosTodo: 'Add at least one photo of yourself',
  photosDone: (n: number) => `${plural(n, 'photo')} added`,
  confirmTodo: 'Tick the box: the photos are of you and you are 18 or older',
  confirmDone: 'Photos confirmed as yours (18+)',
  poseTodo: 'Choose a pose, or describe your own',
  customTodo: 'Describe your pose',
  poseDone: (name: string) => `Pose: ${name}`,
  customDone: 'Pose: your own description',
  creditsUnknown: 'Enough credits (the cost shows once you choose a pose)',
  creditsLoading: 'Checking your credits...',
  creditsShort: (cost: number, credits: number) =>
    `Not enough credits: this costs ${formatCredits(cost)}, you have ${formatCredits(credits)}`,
  creditsDone: (cost: number, credits: number) => `Enough credits: ${formatCredits(cost)} of your ${formatCredits(credits)}`,
  getCredits: 'Get more credits',
} as const;

/** The lines of the checklist, in the order a person fills the panel. */
export function generateChecklist(input: ChecklistInput): ChecklistItem[] {
  const items: ChecklistItem[] = [{ key: 'template', done: true, text: `Outfit: ${input.templateName}` }];
  if (!input.verified) items.push({ key: 'verify', done: false, text: CHECKLIST_TEXT.verify });
  items.push(
    input.photos > 0
      ? { key: 'photos', done: true, text: CHECKLIST_TEXT.photosDone(input.photos) }
      : { key: 'photos', done: false, text: CHECKLIST_TEXT.photosTodo },
  );
  if (input.photos > 0) {
    const done = !input.needsConfirmation || input.confirmed;
    items.push({ key: 'confirm', done, text: done ? CHECKLIST_TEXT.confirmDone : CHECKLIST_TEXT.confirmTodo });
  }
  const custom = input.pose?.kind === 'custom';
  const described = custom && input.customPose.trim().length > 0;
  items.push(
    !input.pose
      ? { key: 'pose', done: false, text: CHECKLIST_TEXT.poseTodo }
      : custom
        ? { key: 'pose', done: described, text: described ? CHECKLIST_TEXT.customDone : CHECKLIST_TEXT.customTodo }
        : { key: 'pose', done: true, text: CHECKLIST_TEXT.poseDone(input.sceneName ?? 'chosen') },
  );
  const { cost, credits } = input;
  if (cost === null) items.push({ key: 'credits', done: false, text: CHECKLIST_TEXT.creditsUnknown });
  else if (credits === undefined) items.push({ key: 'credits', done: false, text: CHECKLIST_TEXT.creditsLoading });
  else if (credits < cost)
    items.push({
      key: 'credits',
      done: false,
      text: CHECKLIST_TEXT.creditsShort(cost, credits),
      link: { label: CHECKLIST_TEXT.getCredits, to: input.pricingPath },
    });
  else items.push({ key: 'credits', done: true, text: CHECKLIST_TEXT.creditsDone(cost, credits) });
  return items;
}

/** Whether Generate may be pressed: every line done. */
export const checklistReady = (items: readonly ChecklistItem[]) => items.every((item) => item.done);
