//! The one place where failures become MySQL error codes (and SQLSTATEs).

use opensrv_mysql::ErrorKind;
use tutti_executor::ExecError;
use tutti_sql::SqlError;

/// MySQL error code and message for an executor error.
pub fn mysql_error(e: &ExecError) -> (ErrorKind, String) {
    use ErrorKind::*;
    use ExecError as E;
    let kind = match e {
        E::Sql(s) => match s {
            SqlError::Syntax(_) => ER_PARSE_ERROR,
            SqlError::Unsupported(_) => ER_NOT_SUPPORTED_YET,
            SqlError::NoDatabaseSelected => ER_NO_DB_ERROR,
            SqlError::UnknownDatabase(_) => ER_BAD_DB_ERROR,
            SqlError::NoSuchTable(_) => ER_NO_SUCH_TABLE,
            SqlError::TableExists(_) => ER_TABLE_EXISTS_ERROR,
            SqlError::UnknownSystemVariable(_) => ER_UNKNOWN_SYSTEM_VARIABLE,
            SqlError::NoPrimaryKey(_) => ER_REQUIRES_PRIMARY_KEY,
            SqlError::NoSuchIndex(_) | SqlError::NoSuchColumnToDrop(_) => ER_CANT_DROP_FIELD_OR_KEY,
            SqlError::WrongArguments(_) => ER_WRONG_ARGUMENTS,
            SqlError::NoDefault(_) => ER_NO_DEFAULT_FOR_FIELD,
            SqlError::UnknownColumn { .. } => ER_BAD_FIELD_ERROR,
            SqlError::TooBigPrecision(_) => ER_TOO_BIG_PRECISION,
            SqlError::TooBigScale { .. } => ER_TOO_BIG_SCALE,
            SqlError::ScaleAbovePrecision(_) => ER_M_BIGGER_THAN_D,
            SqlError::WrongFieldSpec(_) => ER_WRONG_FIELD_SPEC,
            SqlError::InvalidView(_) => ER_VIEW_INVALID,
            SqlError::InvalidDefault(_) => ER_INVALID_DEFAULT,
            SqlError::DuplicatedMember { .. } => ER_DUPLICATED_VALUE_IN_TYPE,
            SqlError::IllegalSetMember(_) => ER_ILLEGAL_VALUE_FOR_TYPE,
            SqlError::TooManySetMembers(_) => ER_TOO_BIG_SET,
            SqlError::InvalidOnUpdate(_) => ER_INVALID_ON_UPDATE,
            SqlError::TooBigDisplayWidth { .. } => ER_TOO_BIG_DISPLAYWIDTH,
            SqlError::ColumnTooLong { .. } => ER_TOO_BIG_FIELDLENGTH,
            SqlError::TemporaryForeignKey(_) => ER_CANT_CREATE_TABLE,
            SqlError::ViewOfTemporary(_) => ER_VIEW_SELECT_TMPTABLE,
            SqlError::AmbiguousColumn(_) => ER_NON_UNIQ_ERROR,
            SqlError::WrongUsage(..) => ER_WRONG_USAGE,
            SqlError::MultiplePrimaryKey => ER_MULTIPLE_PRI_KEY,
            SqlError::ColumnCount(_) => ER_WRONG_VALUE_COUNT_ON_ROW,
            SqlError::AutoColumnNotKey => ER_WRONG_AUTO_KEY,
            SqlError::WrongObject { .. } => ER_WRONG_OBJECT,
            SqlError::KeyColumnMissing(_) => ER_KEY_COLUMN_DOES_NOT_EXITS,
            SqlError::InvalidCharacterString(..) => ER_INVALID_CHARACTER_STRING,
            SqlError::RowArgument(_) => ER_ILLEGAL_PARAMETER_DATA_TYPE_FOR_OPERATION,
            SqlError::DuplicateKeyName(_) => ER_DUP_KEYNAME,
            SqlError::NonUpdatableTable { .. } => ER_NON_UPDATABLE_TABLE,
            SqlError::NonUpdatableColumn(_) => ER_NONUPDATEABLE_COLUMN,
            SqlError::NonInsertableTable(_) => ER_NON_INSERTABLE_TABLE,
            SqlError::UnknownStorageEngine(_) => ER_UNKNOWN_STORAGE_ENGINE,
            SqlError::UnknownCharset(_) => ER_UNKNOWN_CHARACTER_SET,
            SqlError::UnknownCollation(_) => ER_UNKNOWN_COLLATION,
            SqlError::CollationCharsetMismatch { .. } => ER_COLLATION_CHARSET_MISMATCH,
        },
        E::Deadlock => ER_LOCK_DEADLOCK,
        E::LockWaitTimeout => ER_LOCK_WAIT_TIMEOUT,
        E::RecordChanged(_) => ER_CHECKREAD,
        E::NotReady(_) => ER_UNKNOWN_COM_ERROR,
        E::CommitUnknown(_) => ER_ERROR_DURING_COMMIT,
        E::Shutdown => ER_SERVER_SHUTDOWN,
        E::NoSuchTable(_) => ER_NO_SUCH_TABLE,
        E::TableExists(_) => ER_TABLE_EXISTS_ERROR,
        E::UnknownTable(_) | E::DroppedOthers(_) => ER_BAD_TABLE_ERROR,
        E::UnknownView(_) => ER_UNKNOWN_VIEW,
        E::IsView(_) => ER_IT_IS_A_VIEW,
        E::UnknownColumn(_) => ER_BAD_FIELD_ERROR,
        E::AmbiguousColumn(_) => ER_NON_UNIQ_ERROR,
        E::OperandColumns => ER_OPERAND_COLUMNS,
        E::CteColumns => ER_WITH_COL_WRONG_LIST,
        E::WindowPlacement => ER_WRONG_PLACEMENT_OF_WINDOW_FUNCTION,
        E::NoTablesUsed => ER_NO_TABLES_USED,
        E::SubqueryRows => ER_SUBQUERY_NO_1_ROW,
        E::TooManyRows => ER_TOO_MANY_ROWS,
        E::UnionColumns => ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
        E::DuplicateColumn(_) => ER_DUP_FIELDNAME,
        E::DuplicateKeyName(_) => ER_DUP_KEYNAME,
        E::DuplicateKey(_) => ER_DUP_ENTRY,
        E::NotNull(_) => ER_BAD_NULL_ERROR,
        E::ForeignKeyChild => ER_NO_REFERENCED_ROW_2,
        E::ForeignKeyParent => ER_ROW_IS_REFERENCED_2,
        E::Check(_) => ER_CONSTRAINT_FAILED,
        E::DataType(_) => ER_TRUNCATED_WRONG_VALUE_FOR_FIELD,
        E::NoSuchFunction(_) => ER_SP_DOES_NOT_EXIST,
        E::OutOfRange(_) => ER_WARN_DATA_OUT_OF_RANGE,
        E::IncorrectValue(_) => ER_TRUNCATED_WRONG_VALUE_FOR_FIELD,
        E::Truncated(_) => WARN_DATA_TRUNCATED,
        E::IncorrectTemporal(_) | E::TruncatedIncorrect(_) => ER_TRUNCATED_WRONG_VALUE,
        E::WrongLiteral(_) => ER_WRONG_VALUE,
        E::TooLong(_) => ER_DATA_TOO_LONG,
        E::UnknownDatabase(_) => ER_BAD_DB_ERROR,
        E::DatabaseExists(_) => ER_DB_CREATE_EXISTS,
        E::DropMissingDatabase(_) => ER_DB_DROP_EXISTS,
        E::ReadOnlyTransaction => ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION,
        E::WrongParamCount { .. } => ER_WRONG_ARGUMENTS,
        E::UnknownStatement { .. } => ER_UNKNOWN_STMT_HANDLER,
        E::NotPreparable => ER_UNSUPPORTED_PS,
        E::WrongValueForVar(..) => ER_WRONG_VALUE_FOR_VAR,
        E::UnknownTimeZone(_) => ER_UNKNOWN_TIME_ZONE,
        E::ReadOnlyVariable(_) => ER_INCORRECT_GLOBAL_LOCAL_VAR,
        E::GlobalOnly(_) => ER_GLOBAL_VARIABLE,
        E::SessionOnly(_) => ER_LOCAL_VARIABLE,
        E::Interrupted => ER_QUERY_INTERRUPTED,
        E::NoSuchThread(_) => ER_NO_SUCH_THREAD,
        E::InvalidGroupFunction => ER_INVALID_GROUP_FUNC_USE,
        E::NativeArgumentCount(_) => ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT,
        E::ValueOutOfRange(_) => ER_DATA_OUT_OF_RANGE,
        E::IncorrectArguments(_) => ER_WRONG_ARGUMENTS,
        E::LimitNotInteger => ER_INVALID_VALUE_TO_LIMIT,
        E::Sqlite(_) => ER_UNKNOWN_ERROR,
    };
    let message = match e {
        E::NotReady(reason) => {
            format!("WSREP has not yet prepared node for application use ({reason})")
        }
        other => other.to_string(),
    };
    (kind, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn galera_codes_and_sqlstates() {
        let (k, m) = mysql_error(&ExecError::Deadlock);
        assert_eq!((k as u16, k.sqlstate()), (1213, b"40001"));
        assert_eq!(
            m,
            "Deadlock found when trying to get lock; try restarting transaction"
        );
        let (k, m) = mysql_error(&ExecError::RecordChanged("t".into()));
        assert_eq!(
            (k as u16, m.as_str()),
            (1020, "Record has changed since last read in table 't'")
        );
        let (k, _) = mysql_error(&ExecError::NotReady("non-Primary".into()));
        assert_eq!((k as u16, k.sqlstate()), (1047, b"08S01"));
        assert_eq!(
            mysql_error(&ExecError::DuplicateKey("PRIMARY".into())).0 as u16,
            1062
        );
        assert_eq!(
            mysql_error(&ExecError::Sql(SqlError::Syntax("x".into()))).0 as u16,
            1064
        );
        assert_eq!(
            mysql_error(&ExecError::Sql(SqlError::NoPrimaryKey("d.t".into()))).0 as u16,
            1173
        );
        assert_eq!(
            mysql_error(&ExecError::NoSuchTable("d.t".into())).0 as u16,
            1146
        );
        assert_eq!(
            mysql_error(&ExecError::UnknownDatabase("d".into())).0 as u16,
            1049
        );
        for (e, code) in [
            (ExecError::AmbiguousColumn("id".into()), 1052),
            (ExecError::Sql(SqlError::ColumnCount(1)), 1136),
            (ExecError::OperandColumns, 1241),
            (ExecError::UnionColumns, 1222),
            (ExecError::SubqueryRows, 1242),
            (ExecError::LimitNotInteger, 4107),
        ] {
            assert_eq!(mysql_error(&e).0 as u16, code);
        }
    }
}
