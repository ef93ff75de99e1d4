import { describe, expect, it } from 'vitest';
import { reportedCarrier } from './reported-carrier';

const catalog = {
  carriers: [
    { id: 'tm', countryId: 'us', name: 'T-Mobile', asn: null },
    { id: 'att', countryId: 'us', name: 'AT&T', asn: null },
    { id: 'vf-de', countryId: 'de', name: 'Vodafone', asn: null },
    { id: 'vf-uk', countryId: 'gb', name: 'Vodafone UK', asn: null },
    { id: 'ee', countryId: 'gb', name: 'EE', asn: null },
  ],
};

describe('the carrier a modem reports, preselected when adopting it (issue 28, item 11)', () => {
  it('matches the name exactly, whatever its case and punctuation', () => {
    expect(reportedCarrier(catalog, 't-mobile')).toEqual({ countryId: 'us', carrierId: 'tm' });
    expect(reportedCarrier(catalog, 'EE')).toEqual({ countryId: 'gb', carrierId: 'ee' });
    expect(reportedCarrier(catalog, 'Vodafone')).toEqual({ countryId: 'de', carrierId: 'vf-de' });
  });

  it('matches a longer report by whole words, the longest carrier name first', () => {
    expect(reportedCarrier(catalog, 'AT&T Mobility')).toEqual({ countryId: 'us', carrierId: 'att' });
    expect(reportedCarrier(catalog, 'vodafone uk ltd')).toEqual({ countryId: 'gb', carrierId: 'vf-uk' });
    expect(reportedCarrier(catalog, 'Vodafone.de')).toEqual({ countryId: 'de', carrierId: 'vf-de' });
  });

  it('leaves the choice to the operator when nothing or more than one fits', () => {
    expect(reportedCarrier(catalog, null)).toBeNull();
    expect(reportedCarrier(catalog, '')).toBeNull();
    expect(reportedCarrier(catalog, 'Kyivstar')).toBeNull();
    // "ee" is a word of its own, not the letters inside another name.
    expect(reportedCarrier(catalog, 'Freedom Mobile')).toBeNull();
    // Two carriers of the same name in two countries: the device does not say which.
    const twice = { carriers: [...catalog.carriers, { id: 'vf-it', countryId: 'it', name: 'Vodafone', asn: null }] };
    expect(reportedCarrier(twice, 'Vodafone')).toBeNull();
  });
});
