import { type ReleaseGate, releaseGateSchema } from '@shared/contracts/releases';

/** The gate as typed: a percentage (empty: same as published) and a count. */
export interface GateFields {
  minPassRate: string;
  maxRegressions: string;
}

export const gateToFields = (gate: ReleaseGate): GateFields => ({
  minPassRate: gate.minPassRate === null ? '' : String(Math.round(gate.minPassRate * 1000) / 10),
  maxRegressions: String(gate.maxRegressions),
});

const PERCENT_MESSAGE = 'Minimum pass rate must be a percentage from 0 to 100, or empty';

type Parsed =
  { success: true; gate: ReleaseGate } | { success: false; errors: Partial<Record<keyof GateFields, string>> };

/** The typed fields as the contract's gate, or the contract's message for each field that does not fit. */
export function gateFromFields(fields: GateFields): Parsed {
  const percent = fields.minPassRate.trim();
  const result = releaseGateSchema.safeParse({
    minPassRate: percent === '' ? null : Number(percent) / 100,
    maxRegressions: fields.maxRegressions.trim() === '' ? Number.NaN : Number(fields.maxRegressions),
  });
  if (result.success) return { success: true, gate: result.data };
  const errors: Partial<Record<keyof GateFields, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof GateFields;
    // The contract speaks of a fraction; the field is a percentage.
    errors[field] ??= field === 'minPassRate' ? PERCENT_MESSAGE : issue.message;
  }
  return { success: false, errors };
}
