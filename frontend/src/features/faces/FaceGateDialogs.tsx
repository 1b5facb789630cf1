import { FaceConsentDialog } from './FaceConsentDialog';
import { SelfieDialog } from './SelfieDialog';
import type { FaceGate } from './useFaceGate';

/** The consent and the live selfie of a FaceGate (useFaceGate), opened when it asks. */
export function FaceGateDialogs({ gate }: { gate: FaceGate }) {
  return (
    <>
      <FaceConsentDialog open={gate.consentOpen} status={gate.status} onClose={gate.closeConsent} />
      <SelfieDialog open={gate.selfieOpen} onClose={gate.closeSelfie} />
    </>
  );
}
