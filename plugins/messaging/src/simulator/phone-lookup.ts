// Phone-number lookups as a carrier lookup API answers them: validity, country and number type,
// from libphonenumber-js's full metadata.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export interface PhoneLookup {
  number: string;
  valid: boolean;
  possible: boolean;
  country: string | null;
  country_calling_code: string | null;
  /** mobile, fixed_line, fixed_line_or_mobile, toll_free, voip, … or null when unknown. */
  type: string | null;
  national_format: string | null;
  international_format: string | null;
}

export function lookupPhoneNumber(number: string): PhoneLookup {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed) {
    return { number, valid: false, possible: false, country: null, country_calling_code: null, type: null, national_format: null, international_format: null };
  }
  const valid = parsed.isValid();
  return {
    number,
    valid,
    possible: parsed.isPossible(),
    country: parsed.country ?? null,
    country_calling_code: parsed.countryCallingCode ?? null,
    type: valid ? (parsed.getType()?.toLowerCase() ?? null) : null,
    national_format: valid ? parsed.formatNational() : null,
    international_format: valid ? parsed.formatInternational() : null,
  };
}
