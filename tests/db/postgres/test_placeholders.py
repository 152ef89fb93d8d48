"""The one translation PostgreSQL needs from the SQL db/ writes: `?` placeholders become
`$1, $2, ...`, and nothing inside a string literal, a quoted name or a comment changes."""

from db.postgres import rowcount, translate_placeholders


def test_placeholders_are_numbered_in_order():
    assert (
        translate_placeholders("SELECT * FROM games WHERE id = ? AND version = ? LIMIT ?")
        == "SELECT * FROM games WHERE id = $1 AND version = $2 LIMIT $3"
    )


def test_question_marks_in_literals_names_and_comments_stay():
    sql = (
        "SELECT 'why?', 'it''s ?', \"odd?name\" FROM t -- who?\n"
        "WHERE a = ? AND b LIKE '%?%' AND c = ?"
    )
    assert translate_placeholders(sql) == (
        "SELECT 'why?', 'it''s ?', \"odd?name\" FROM t -- who?\n"
        "WHERE a = $1 AND b LIKE '%?%' AND c = $2"
    )


def test_sql_without_placeholders_is_unchanged():
    sql = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
    assert translate_placeholders(sql) == sql


def test_rowcount_comes_from_the_status_line():
    assert rowcount("UPDATE 1") == 1
    assert rowcount("INSERT 0 3") == 3
    assert rowcount("DELETE 0") == 0
    assert rowcount("CREATE TABLE") == -1
