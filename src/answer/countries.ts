// Countries by the names and adjectives a text uses for them, for the answers that ask whether two
// documents' subjects are of the same country (same-country.ts). Invariants: every name maps to one
// country key (its first name below); a constituent country maps to its state (England, Scottish ->
// United Kingdom) and a US state to the United States; matching is by whole words, case-sensitive
// (names are capitalised), the longest name first ("South Korea" before "Korea").
import { escapeRegExp } from './text-units.js';

/** `Country|other name|adjective|...[;part|part...]`: the first is the key every other maps to; the names after `;` are of its parts. */
const TABLE = `Afghanistan|Afghan
Albania|Albanian
Algeria|Algerian
Andorra|Andorran
Angola|Angolan
Argentina|Argentine|Argentinian
Armenia|Armenian
Australia|Australian
Austria|Austrian|Austria-Hungary|Austro-Hungarian
Azerbaijan|Azerbaijani
Bahamas|Bahamian
Bahrain|Bahraini
Bangladesh|Bangladeshi
Barbados|Barbadian
Belarus|Belarusian
Belgium|Belgian
Belize|Belizean
Benin|Beninese
Bhutan|Bhutanese
Bolivia|Bolivian
Bosnia and Herzegovina|Bosnia|Bosnian
Botswana|Botswanan
Brazil|Brazilian
Brunei|Bruneian
Bulgaria|Bulgarian
Burkina Faso|Burkinabé
Burundi|Burundian
Cambodia|Cambodian
Cameroon|Cameroonian
Canada|Canadian|Ontario|Quebec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|New Brunswick
Cape Verde|Cape Verdean
Central African Republic
Chad|Chadian
Chile|Chilean
China|Chinese|People's Republic of China
Colombia|Colombian
Comoros|Comorian
Costa Rica|Costa Rican
Croatia|Croatian
Cuba|Cuban
Cyprus|Cypriot
Czech Republic|Czechia|Czech|Czechoslovakia|Czechoslovak
Democratic Republic of the Congo|Congolese
Denmark|Danish
Djibouti|Djiboutian
Dominican Republic|Dominican
Ecuador|Ecuadorian
Egypt|Egyptian
El Salvador|Salvadoran
Equatorial Guinea|Equatoguinean
Eritrea|Eritrean
Estonia|Estonian
Eswatini|Swaziland|Swazi
Ethiopia|Ethiopian
Fiji|Fijian
Finland|Finnish
France|French
Gabon|Gabonese
Gambia|Gambian
Georgia|Georgian
Germany|German|West Germany|East Germany|West German|East German|Prussia|Prussian
Ghana|Ghanaian
Greece|Greek
Grenada|Grenadian
Guatemala|Guatemalan
Guinea|Guinean
Guinea-Bissau
Guyana|Guyanese
Haiti|Haitian
Honduras|Honduran
Hong Kong
Hungary|Hungarian
Iceland|Icelandic
India|Indian
Indonesia|Indonesian
Iran|Iranian|Persia|Persian
Iraq|Iraqi
Ireland|Irish|Republic of Ireland
Israel|Israeli
Italy|Italian
Ivory Coast|Côte d'Ivoire|Ivorian
Jamaica|Jamaican
Japan|Japanese
Jordan|Jordanian
Kazakhstan|Kazakh|Kazakhstani
Kenya|Kenyan
Kosovo|Kosovar
Kuwait|Kuwaiti
Kyrgyzstan|Kyrgyz
Laos|Laotian|Lao
Latvia|Latvian
Lebanon|Lebanese
Lesotho
Liberia|Liberian
Libya|Libyan
Liechtenstein
Lithuania|Lithuanian
Luxembourg|Luxembourgish
Madagascar|Malagasy
Malawi|Malawian
Malaysia|Malaysian
Maldives|Maldivian
Mali|Malian
Malta|Maltese
Mauritania|Mauritanian
Mauritius|Mauritian
Mexico|Mexican
Moldova|Moldovan
Monaco|Monégasque
Mongolia|Mongolian
Montenegro|Montenegrin
Morocco|Moroccan
Mozambique|Mozambican
Myanmar|Burma|Burmese
Namibia|Namibian
Nepal|Nepalese|Nepali
Netherlands|Dutch|Holland
New Zealand|New Zealander
Nicaragua|Nicaraguan
Niger|Nigerien
Nigeria|Nigerian
North Korea|North Korean
North Macedonia|Macedonia|Macedonian
Norway|Norwegian
Oman|Omani
Pakistan|Pakistani
Palestine|Palestinian
Panama|Panamanian
Papua New Guinea
Paraguay|Paraguayan
Peru|Peruvian
Philippines|Filipino|Philippine
Poland|Polish
Portugal|Portuguese
Puerto Rico|Puerto Rican
Qatar|Qatari
Republic of the Congo
Romania|Romanian
Russia|Russian|Russian Federation|Soviet Union|Soviet|USSR|Russian Empire
Rwanda|Rwandan
Samoa|Samoan
San Marino
Saudi Arabia|Saudi
Senegal|Senegalese
Serbia|Serbian|Yugoslavia|Yugoslav
Seychelles
Sierra Leone|Sierra Leonean
Singapore|Singaporean
Slovakia|Slovak
Slovenia|Slovenian|Slovene
Somalia|Somali
South Africa|South African
South Korea|South Korean|Korea|Korean
South Sudan
Spain|Spanish
Sri Lanka|Sri Lankan|Ceylon
Sudan|Sudanese
Suriname|Surinamese
Sweden|Swedish
Switzerland|Swiss
Syria|Syrian
Taiwan|Taiwanese|Republic of China
Tajikistan|Tajik
Tanzania|Tanzanian
Thailand|Thai
Togo|Togolese
Trinidad and Tobago|Trinidadian
Tunisia|Tunisian
Turkey|Turkish|Ottoman Empire|Ottoman
Turkmenistan|Turkmen
Uganda|Ugandan
Ukraine|Ukrainian
United Arab Emirates|Emirati|UAE
United Kingdom|British|UK|U.K.|Great Britain|Britain;England|English|Scotland|Scottish|Wales|Welsh|Northern Ireland
United States|United States of America|American|USA|U.S.|U.S.A.;Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington, D.C.|West Virginia|Wisconsin|Wyoming
Uruguay|Uruguayan
Uzbekistan|Uzbek
Venezuela|Venezuelan
Vietnam|Vietnamese
Yemen|Yemeni
Zambia|Zambian
Zimbabwe|Zimbabwean`;

const KEY = new Map<string, string>();
/** The names of a country's parts (after a row's `;`): a US state, England, Scottish... */
const REGIONS = new Set<string>();
for (const line of TABLE.split('\n')) {
  const [whole, parts = ''] = line.split(';');
  const names = whole.split('|');
  for (const n of names) KEY.set(n, names[0]);
  for (const n of parts.split('|').filter(Boolean)) {
    KEY.set(n, names[0]);
    REGIONS.add(n);
  }
}
const NAMES = [...KEY.keys()].sort((a, b) => b.length - a.length);
const ANY = new RegExp(`(?<![\\p{L}\\p{N}])(${NAMES.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu');

/** A country a text names, and where. */
export interface CountryMention {
  country: string;
  /** the name or adjective as the text writes it */
  name: string;
  index: number;
  /** the name is of a part of the country (a US state, England), not of the whole */
  region: boolean;
}

/** Every country `text` names (by name or adjective), in text order. */
export function countriesIn(text: string): CountryMention[] {
  return [...text.matchAll(ANY)].map((m) => ({ country: KEY.get(m[1]) ?? m[1], name: m[1], index: m.index, region: REGIONS.has(m[1]) }));
}
