//! The sweep's table as Parquet: one row group, every column optional (an empty cell is a
//! null), each column typed from its cells: INT64 when every cell is a whole number, DOUBLE
//! when every cell is a number, otherwise UTF-8 text.
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    Int,
    Double,
    Text,
}

/// The type of a column from its cells (all empty: text).
pub fn column_type<'a>(cells: impl Iterator<Item = &'a str> + Clone) -> ColumnType {
    let filled = cells.filter(|c| !c.is_empty());
    if filled.clone().next().is_none() {
        ColumnType::Text
    } else if filled.clone().all(|c| c.parse::<i64>().is_ok()) {
        ColumnType::Int
    } else if filled.clone().all(|c| c.parse::<f64>().is_ok()) {
        ColumnType::Double
    } else {
        ColumnType::Text
    }
}

/// Write `rows` (cells as text) under `columns` to `path`.
pub fn write(path: &Path, columns: &[String], rows: &[Vec<String>]) -> Result<(), String> {
    let err = |e: parquet::errors::ParquetError| format!("{}: {e}", path.display());
    let types: Vec<ColumnType> = (0..columns.len())
        .map(|c| column_type(rows.iter().map(move |r| r[c].as_str())))
        .collect();
    let fields = columns
        .iter()
        .zip(&types)
        .map(|(name, t)| {
            let b = match t {
                ColumnType::Int => Type::primitive_type_builder(name, Physical::INT64),
                ColumnType::Double => Type::primitive_type_builder(name, Physical::DOUBLE),
                ColumnType::Text => Type::primitive_type_builder(name, Physical::BYTE_ARRAY)
                    .with_logical_type(Some(LogicalType::String)),
            };
            b.with_repetition(Repetition::OPTIONAL)
                .build()
                .map(Arc::new)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let schema = Type::group_type_builder("sweep")
        .with_fields(fields)
        .build()
        .map_err(err)?;
    let file = File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), props).map_err(err)?;
    let mut group = writer.next_row_group().map_err(err)?;
    let mut c = 0;
    while let Some(mut col) = group.next_column().map_err(err)? {
        let cells: Vec<&str> = rows.iter().map(|r| r[c].as_str()).collect();
        let defs: Vec<i16> = cells.iter().map(|s| i16::from(!s.is_empty())).collect();
        let filled = cells.iter().filter(|s| !s.is_empty());
        // The cells were typed above, so every parse below succeeds.
        match types[c] {
            ColumnType::Int => {
                let v: Vec<i64> = filled.map(|s| s.parse().unwrap_or_default()).collect();
                col.typed::<Int64Type>().write_batch(&v, Some(&defs), None)
            }
            ColumnType::Double => {
                let v: Vec<f64> = filled.map(|s| s.parse().unwrap_or_default()).collect();
                col.typed::<DoubleType>().write_batch(&v, Some(&defs), None)
            }
            ColumnType::Text => {
                let v: Vec<ByteArray> = filled
                    .map(|s| ByteArray::from(s.as_bytes().to_vec()))
                    .collect();
                col.typed::<ByteArrayType>()
                    .write_batch(&v, Some(&defs), None)
            }
        }
        .map_err(err)?;
        col.close().map_err(err)?;
        c += 1;
    }
    group.close().map_err(err)?;
    writer.close().map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    #[test]
    fn columns_are_typed_and_rows_read_back() {
        let columns: Vec<String> = ["variant", "seed", "virtual_s", "error"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let rows: Vec<Vec<String>> = vec![
            vec!["before".into(), "1".into(), "13.5".into(), "".into()],
            vec!["after".into(), "2".into(), "".into(), "boom".into()],
        ];
        let path =
            std::env::temp_dir().join(format!("reclaim-sweep-{}.parquet", std::process::id()));
        write(&path, &columns, &rows).unwrap();
        let reader = SerializedFileReader::try_from(path.as_path()).unwrap();
        let got: Vec<Vec<(String, Field)>> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| {
                r.unwrap()
                    .get_column_iter()
                    .map(|(n, f)| (n.clone(), f.clone()))
                    .collect()
            })
            .collect();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0][0],
            ("variant".to_string(), Field::Str("before".into()))
        );
        assert_eq!(got[0][1].1, Field::Long(1));
        assert_eq!(got[0][2].1, Field::Double(13.5));
        assert_eq!(got[0][3].1, Field::Null);
        assert_eq!(got[1][2].1, Field::Null);
        assert_eq!(got[1][3].1, Field::Str("boom".into()));
    }
}
