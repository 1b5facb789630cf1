import { paths } from '../../app/paths';
import { APP_NAME, UPLOAD_RETENTION_DAYS } from '../../config/app-config';
import { Bullets, LegalContacts, LegalPage, LegalSection, P, PageLink, SUPPORT_RESPONSE_TIME } from './LegalPage';

/**
 * Privacy Policy (route /privacy). It describes what the product really does: photos private
 * behind short-lived links, unused uploads deleted after UPLOAD_RETENTION_DAYS, "Delete All My
 * Data" (DELETE /api/me) immediate, and deletion on request within 30 days (docs/product.md).
 */
export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      summary={
        <>
          This policy explains what {APP_NAME} collects, why, how long we keep it, and how you can delete it. In short: your photos are
          private, we never sell or share them, and you can delete everything at any time.
        </>
      }
    >
      <LegalSection title="1. What we collect">
        <Bullets
          items={[
            'Account details: your name, your email address, and your password (stored only as a one-way hash, never in readable form). If you sign in with Google, we receive your name and email address from Google.',
            'Your confirmation that you are 18 or older, and when you gave it.',
            'The photos you upload and the images and videos we generate for you.',
            'Your settings, your credit balance and plan, and a record of your generations (for example how many succeeded or failed, the credits spent and when you last used the service).',
            'Basic usage events (such as signing up or starting a generation), recorded on our own servers to keep the service working and improve it.',
          ]}
        />
      </LegalSection>

      <LegalSection title="2. How we use it">
        <P>
          We use your information only to run {APP_NAME}: to create the try-ons you ask for, to manage your account, credits and plan, to
          answer your support requests, to keep the service secure and to send you the emails you chose in Settings. We do not sell your
          information and we do not use your photos to advertise.
        </P>
      </LegalSection>

      <LegalSection title="3. Your photos stay private">
        <Bullets
          items={[
            'Your uploaded photos and your results are never published. Only you can see them while signed in, through links that expire after a few minutes.',
            'Your photos travel over encrypted connections, and we never share them with other users.',
            'To create a try-on, your photo and the outfit description are sent to the AI processing provider that renders it, which may use them only to produce your result.',
            'Photos are checked and re-encoded when you upload them: hidden metadata such as location is removed.',
            'With your consent, asked before your first photo is checked, we check the face in your photos, in a live selfie and in your results, so that they show only you. These face measurements are biometric data: they are computed on our own servers, never sent to the AI provider or anyone else, kept only as long as the photo they come from and deleted with it and with your account. The selfie itself is never stored.',
            'Your results are yours: you can download them at any time from your dashboard.',
          ]}
        />
      </LegalSection>

      <LegalSection title="4. How long we keep it">
        <P>
          Uploaded photos that have not been used in a generation for {UPLOAD_RETENTION_DAYS} days are deleted automatically, together with
          their records. Your results stay in your account until you delete them or your account. Everything else is kept for as long as you
          have an account.
        </P>
      </LegalSection>

      <LegalSection title="5. Deleting your data">
        <P>
          You can delete your account yourself at any time: Delete All My Data in Settings deletes your account, your photos, your results
          and your personal records immediately. You can also delete single results from your dashboard.
        </P>
        <P>
          If you prefer, ask us by email to delete your account: we remove your personal data within 30 days of your request. Records we
          must keep for accounting (such as past credit transactions) are kept without your name or email address.
        </P>
      </LegalSection>

      <LegalSection title="6. Cookies and local storage">
        <P>
          We use one cookie, which keeps you signed in; it cannot be read by scripts on the page. We also remember in your browser whether
          you had a session, so that the site does not check for one needlessly. We use no advertising cookies and no third-party trackers.
        </P>
      </LegalSection>

      <LegalSection title="7. Adults only, and images of others">
        <P>
          {APP_NAME} is for adults 18 and over. We do not knowingly collect information about anyone under 18, and we do not create nude or
          sexually explicit images. Only upload photos of yourself. If an image of you was created without your agreement, report it through{' '}
          <PageLink to={paths.contact}>Contact / Report an image</PageLink> and we will remove it and its files.
        </P>
      </LegalSection>

      <LegalSection title="8. Your rights">
        <P>
          You can ask to see the information we hold about you, correct it (you can change your name in your Profile), delete it, or object
          to how we use it. Wherever you live, write to us and we will answer within {SUPPORT_RESPONSE_TIME} and act on your request
          promptly. You may also complain to your local privacy regulator; in Australia, that is the Office of the Australian Information
          Commissioner.
        </P>
      </LegalSection>

      <LegalSection title="9. Changes to this policy">
        <P>If we change this policy in a way that matters, we tell you by email or in the app before the change applies.</P>
      </LegalSection>

      <LegalContacts />
    </LegalPage>
  );
}
