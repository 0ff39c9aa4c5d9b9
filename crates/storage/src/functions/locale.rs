//! MariaDB's locales as `FORMAT(x, d, locale)` writes numbers: the decimal point, the
//! thousands separator (none in some locales, a NUL byte in `bg_BG`, as in MariaDB) and the
//! grouping (threes, or the Indian 3-then-2). Read off MariaDB 10.11's own answers for every
//! locale it knows.

/// How a locale writes a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NumberFormat {
    /// The decimal point.
    pub point: char,
    /// The thousands separator, if the locale groups digits.
    pub separator: Option<char>,
    /// Groups of two after the first three (`1,23,45,678`).
    pub indian: bool,
}

const fn fmt(point: char, separator: Option<char>, indian: bool) -> NumberFormat {
    NumberFormat {
        point,
        separator,
        indian,
    }
}

/// en_US, the default.
pub(crate) const EN_US: NumberFormat = fmt('.', Some(','), false);

const FORMATS: [(NumberFormat, &str); 9] = [
    (
        EN_US,
        "ar_AE ar_BH ar_DZ ar_EG ar_IN ar_IQ ar_JO ar_KW ar_LB ar_LY ar_MA ar_OM ar_QA ar_SD \
         ar_SY ar_TN ar_YE en_AU en_CA en_GB en_NZ en_PH en_US en_ZA en_ZW es_DO es_GT es_HN \
         es_MX es_NI es_PA es_PE es_PR es_SV es_US gu_IN he_IL hi_IN ja_JP ko_KR ms_MY th_TH \
         ur_PK zh_CN zh_HK zh_TW",
    ),
    (fmt('.', None, false), "ar_SA sr_RS sr_YU"),
    (
        fmt(',', Some('.'), false),
        "be_BY da_DK de_BE de_DE de_LU es_AR es_BO es_CL es_CO es_EC es_ES es_PY es_UY es_VE \
         fo_FO hu_HU id_ID is_IS lt_LT mn_MN nb_NO no_NO ro_RO ru_UA sq_AL tr_TR uk_UA vi_VN",
    ),
    (fmt(',', Some('\0'), false), "bg_BG"),
    (
        fmt(',', None, false),
        "ca_ES de_AT el_GR eu_ES fr_BE fr_CA fr_CH fr_FR fr_LU gl_ES hr_HR it_IT nl_BE nl_NL \
         pl_PL pt_BR pt_PT sl_SI",
    ),
    (
        fmt(',', Some(' '), false),
        "cs_CZ es_CR et_EE fi_FI ka_GE lv_LV mk_MK ru_RU sk_SK sv_FI sv_SE",
    ),
    (fmt('.', Some('\''), false), "de_CH"),
    (fmt('.', Some(','), true), "en_IN ta_IN te_IN"),
    (fmt(',', Some('\''), false), "it_CH rm_CH"),
];

/// The number format of the locale named `name` (any case), if MariaDB knows it.
pub(crate) fn number_format(name: &str) -> Option<NumberFormat> {
    FORMATS.iter().find_map(|(f, names)| {
        names
            .split_whitespace()
            .any(|n| n.eq_ignore_ascii_case(name))
            .then_some(*f)
    })
}

impl NumberFormat {
    /// The sign, the integer digits grouped, and the fraction.
    pub(crate) fn write(&self, neg: bool, int_part: &str, frac: &str) -> String {
        let mut out = String::new();
        if neg {
            out.push('-');
        }
        let digits = int_part.as_bytes();
        for (i, c) in digits.iter().enumerate() {
            let left = digits.len() - i;
            let boundary = if self.indian && left > 3 {
                (left - 3).is_multiple_of(2)
            } else {
                left.is_multiple_of(3)
            };
            if let Some(sep) = self.separator.filter(|_| i > 0 && boundary) {
                out.push(sep);
            }
            out.push(*c as char);
        }
        if !frac.is_empty() {
            out.push(self.point);
            out.push_str(frac);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_numbers_as_mariadb_does() {
        let w =
            |loc: &str, int: &str, frac: &str| number_format(loc).unwrap().write(false, int, frac);
        assert_eq!(w("en_us", "1234567", "5"), "1,234,567.5");
        assert_eq!(w("DE_de", "1234", "5"), "1.234,5");
        assert_eq!(
            w("en_IN", "12345678901234567890", "123"),
            "1,23,45,67,89,01,23,45,67,890.123"
        );
        assert_eq!(w("en_IN", "123456", ""), "1,23,456");
        assert_eq!(w("fr_FR", "1234567", "12"), "1234567,12");
        assert_eq!(w("it_CH", "1234567", "1"), "1'234'567,1");
        assert_eq!(w("bg_BG", "1234", "5"), "1\u{0}234,5");
        assert_eq!(w("en_US", "123", ""), "123");
        assert!(number_format("xx_XX").is_none());
    }
}
