import { list, record, text, time, z, lazy, type Infer } from '../schema.ts';

const warningDetail = lazy(() =>
  record(
    {
      event: text('Event as the issuer named it, e.g. Gefahreninformation'),
      category: list(z.string(), 'CAP categories, e.g. Health, Met, Safety'),
      urgency: text('CAP urgency as issued, e.g. Immediate'),
      certainty: text('CAP certainty as issued, e.g. Observed'),
      description: text('Description, verbatim (may contain HTML line breaks)'),
      instruction: text('Instructions, verbatim (may contain HTML line breaks)'),
      contact: text('Contact text, verbatim'),
      web: text('Web link given by the issuer'),
      sender_name: text('Issuing authority (CAP parameter sender_langname)'),
      areas: list(z.string(), 'Area descriptions of the warning, verbatim'),
    },
    'The full CAP message (only with details=true)',
  ),
);

const civilWarning = lazy(() =>
  record({
    id: text('NINA warning id, e.g. mow.DE-NW-BN-SE030-20201014-30-000'),
    provider: text('Warning system: MOWAS, DWD, KATWARN, BIWAPP, LHP or POLICE'),
    message_type: text('CAP message type as issued: Alert, Update or Cancel'),
    severity: text('CAP severity as issued: Minor, Moderate, Severe, Extreme or Unknown'),
    event_code: text('BBK event code, e.g. BBK-EVC-040'),
    headline: text('Headline, verbatim'),
    sent: time('When the message was sent'),
    start: time('Onset of the event (null: not stated)'),
    end: time('Expiry of the warning (null: until further notice)'),
    detail: warningDetail().nullable(),
  }),
);

export const CivilProtectionWarningsRecord = lazy(() =>
  record({
    ars: text('Regional key the warnings were asked for (12 digits, district level: the last seven are zero)'),
    warnings: list(civilWarning(), 'Active warnings, as the authorities issued them'),
  }),
);
export type CivilProtectionWarningsRecord = Infer<typeof CivilProtectionWarningsRecord>;
export type CivilProtectionWarning = CivilProtectionWarningsRecord['warnings'][number];
export type CivilProtectionWarningDetail = NonNullable<CivilProtectionWarning['detail']>;
