/** The `$defs` of the world's reference data: currencies, customers, users, accounts, beneficiaries, rates, fees. */
import type { components } from '../../../generated/api.js';
import { ref, specEnum } from './build.js';

type Schemas = components['schemas'];

const BENEFICIARY_TYPES = specEnum<Schemas['BeneficiaryType']>()(['INDIVIDUAL', 'BUSINESS']);

const processorFee = {
  type: 'object',
  additionalProperties: false,
  required: ['accountProvider', 'currency', 'percentBps', 'fixed', 'min', 'max'],
  properties: {
    accountProvider: ref('accountProvider'),
    currency: ref('currencyCode'),
    percentBps: ref('bps'),
    fixed: ref('decimal'),
    min: ref('decimal'),
    max: ref('decimal'),
  },
} as const;

export const referenceDataDefs = {
  currency: {
    type: 'object',
    additionalProperties: false,
    required: ['code', 'name', 'symbol', 'decimals'],
    properties: {
      id: ref('uuid'),
      code: ref('currencyCode'),
      name: ref('text'),
      symbol: { type: 'string', minLength: 1, maxLength: 10 },
      decimals: { type: 'integer', minimum: 0, maximum: 18 },
    },
  },
  customer: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'firstName', 'lastName', 'companyLegalName'],
    properties: {
      id: ref('uuid'),
      firstName: ref('text'),
      lastName: ref('text'),
      companyLegalName: ref('text'),
      spreadBips: {
        description:
          "FX spread of the customer's fee profile, in basis points (below 10000: a spread of 100 % would leave an effective rate of 0). Absent: no fee profile, spread 0.",
        type: 'integer',
        minimum: 0,
        maximum: 9999,
      },
      requiresPayrollApproval: {
        description:
          "Four-eyes approval: the customer's payroll requests wait in AWAITING_APPROVAL until another of its users with the approver permission approves them. Absent: false.",
        type: 'boolean',
        default: false,
      },
      wpsEstablishmentId: {
        description:
          "The employer's 13-digit establishment id with the UAE's Ministry of Human Resources and Emiratisation: its payrolls in AED are paid through the Wage Protection System, with a Salary Information File beside the payment file (docs/wps.md). Absent: not a WPS employer.",
        type: 'string',
        pattern: '^[0-9]{1,13}$',
      },
      wpsAgentRoutingCode: {
        description: "The 9-digit routing code of the employer's WPS agent (the bank or exchange house that forwards its salary files).",
        type: 'string',
        pattern: '^[0-9]{9}$',
      },
    },
  },
  user: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'firstName', 'lastName', 'email', 'role'],
    properties: {
      id: ref('uuid'),
      firstName: ref('text'),
      lastName: ref('text'),
      email: { type: 'string', format: 'email', maxLength: 254 },
      role: { enum: ['customer', 'admin'] },
      customerId: {
        description: 'Required for role customer; absent or null for role admin.',
        anyOf: [ref('uuid'), { type: 'null' }],
      },
      permissions: {
        description: "A customer user's permissions: approver approves and rejects the customer's payroll requests (four-eyes approval). Absent: none.",
        type: 'array',
        uniqueItems: true,
        items: { enum: ['approver'] },
      },
    },
  },
  account: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'accountProvider', 'customerId', 'currencies'],
    properties: {
      id: ref('uuid'),
      accountProvider: ref('accountProvider'),
      customerId: {
        description: 'The owning customer; null for a platform partner-bank account usable by every customer as payroll account.',
        anyOf: [ref('uuid'), { type: 'null' }],
      },
      currencies: { type: 'array', minItems: 1, items: ref('accountCurrency') },
      iban: {
        description:
          "The account's IBAN at its bank: the debtor account of the payment files written when BANK_RAIL=iso20022 pays from this account (required then, with bic; optional otherwise).",
        type: 'string',
        pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$',
      },
      bic: {
        description:
          "The BIC of the account's bank (the debtor agent of those payment files), in the ISO 20022 form: 4 letters or digits, a country, 2 letters or digits, an optional branch.",
        type: 'string',
        pattern: '^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$',
      },
      legalName: {
        description:
          "The legal name of the account's holder as its bank knows it: the debtor's name (Dbtr/Nm, at most 140 characters) of the payment files paying from this account. Absent: the company legal name of the account's owner, or for a platform partner-bank account that of the customer whose payroll or payout it is.",
        type: 'string',
        minLength: 1,
        maxLength: 140,
      },
    },
  },
  accountCurrency: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'currency', 'balance'],
    properties: {
      id: ref('uuid'),
      currency: ref('currencyCode'),
      balance: {
        description: 'Opening balance, before the payroll requests of the file; available starts equal to it.',
        ...ref('decimal'),
      },
    },
  },
  beneficiary: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'customerId', 'firstName', 'lastName', 'displayName', 'type', 'nationality', 'bankName'],
    properties: {
      id: ref('uuid'),
      customerId: ref('uuid'),
      firstName: ref('text'),
      lastName: ref('text'),
      displayName: ref('text'),
      type: { enum: BENEFICIARY_TYPES },
      nationality: { type: 'string', pattern: '^[A-Z]{2}$' },
      bankName: ref('text'),
      iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' },
      accountNumber: { type: 'string', minLength: 1, maxLength: 64 },
      reference: { type: 'string', minLength: 1, maxLength: 140 },
      companyName: ref('text'),
      bankCode: { type: 'string', minLength: 1, maxLength: 34 },
      swiftBic: { type: 'string', pattern: '^[A-Z0-9]{8}([A-Z0-9]{3})?$' },
      email: { type: 'string', minLength: 3, maxLength: 254 },
      labourCardPersonId: { description: 'The labour-card person id (WPS, docs/wps.md).', type: 'string', pattern: '^[0-9]{1,14}$' },
      wpsRoutingCode: { description: "The WPS routing code of the beneficiary's bank or exchange house.", type: 'string', pattern: '^[0-9]{9}$' },
      active: { type: 'boolean', default: true },
    },
  },
  rate: {
    type: 'object',
    additionalProperties: false,
    required: ['from', 'to', 'rate'],
    properties: {
      from: ref('currencyCode'),
      to: ref('currencyCode'),
      rate: { description: 'How many `to` units one `from` unit buys; greater than zero.', ...ref('decimal') },
    },
  },
  peg: {
    type: 'object',
    additionalProperties: false,
    required: ['anchor', 'currency', 'rate'],
    properties: {
      anchor: { description: 'The currency the peg is to (USD).', ...ref('currencyCode') },
      currency: { description: 'The pegged currency (AED); at most one peg each.', ...ref('currencyCode') },
      rate: { description: 'How many `currency` units one `anchor` unit buys (3.6725); greater than zero.', ...ref('decimal') },
    },
  },
  calendar: {
    description:
      "The partner bank's calendar for one currency; every key but `currency` is optional and defaults to the service's own calendar for that currency (AED: country AE, Asia/Dubai, weekend SAT and SUN, cut-off 15:00).",
    type: 'object',
    additionalProperties: false,
    required: ['currency'],
    properties: {
      currency: { description: 'The currency whose partner bank keeps this calendar; at most one calendar each.', ...ref('currencyCode') },
      country: {
        description: 'ISO 3166-1 alpha-2 country whose public holidays close the bank (date-holidays); null: none.',
        anyOf: [{ type: 'string', pattern: '^[A-Z]{2}$' }, { type: 'null' }],
      },
      timeZone: { description: "The bank's IANA time zone (Asia/Dubai).", type: 'string', minLength: 1, maxLength: 64 },
      weekend: {
        description: 'The weekdays the bank is closed.',
        type: 'array',
        uniqueItems: true,
        maxItems: 6,
        items: { enum: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] },
      },
      cutOff: { description: "The bank's daily cut-off on its own clock, HH:MM.", type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
      addedHolidays: {
        description: 'Extra closing days (an announced holiday, an Eid set by the moon sighting).',
        type: 'array',
        uniqueItems: true,
        items: ref('day'),
      },
      removedHolidays: {
        description: 'Days the holiday library names on which the bank opens after all (a holiday that moved).',
        type: 'array',
        uniqueItems: true,
        items: ref('day'),
      },
    },
  },
  fees: {
    type: 'object',
    additionalProperties: false,
    required: ['bankFeePerBeneficiary', 'processor', 'payout'],
    properties: {
      bankFeePerBeneficiary: {
        description: "Fixed bank fee per beneficiary in the payroll currency, keyed by that currency's code.",
        type: 'object',
        propertyNames: ref('currencyCode'),
        additionalProperties: ref('decimal'),
      },
      processor: { type: 'array', items: ref('processorFee') },
      payout: { type: 'array', items: ref('payoutFee') },
      internalPayout: { type: 'array', items: ref('internalPayoutFee') },
    },
  },
  processorFee,
  payoutFee: {
    ...processorFee,
    required: [...processorFee.required, 'settlementDays'],
    properties: { ...processorFee.properties, settlementDays: { type: 'integer', minimum: 0, maximum: 60 } },
  },
  internalPayoutFee: {
    type: 'object',
    additionalProperties: false,
    required: ['currency', 'percentBps', 'fixed'],
    properties: {
      customerId: {
        description: 'Absent or null: the platform default for the currency.',
        anyOf: [ref('uuid'), { type: 'null' }],
      },
      currency: ref('currencyCode'),
      percentBps: ref('bps'),
      fixed: ref('decimal'),
    },
  },
} as const;
