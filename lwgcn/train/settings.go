package train

import "reflect"

// Settings by name: a hyperparameter type marks its fields with a
// `setting:"name"` tag (the flags of `lwgcn train`), and SetSetting and
// SettingNames read and set them, so that one table of names serves every
// model's settings.

// SetSetting sets the field of the struct *s whose `setting` tag is name
// to v (integer fields get v truncated); ok is false when no field has
// that tag.
func SetSetting(s any, name string, v float64) (ok bool) {
	val := reflect.ValueOf(s).Elem()
	for i := range val.NumField() {
		if val.Type().Field(i).Tag.Get("setting") != name {
			continue
		}
		f := val.Field(i)
		switch f.Kind() {
		case reflect.Float32, reflect.Float64:
			f.SetFloat(v)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f.SetInt(int64(v))
		default:
			return false
		}
		return true
	}
	return false
}

// SettingNames lists the `setting` tags of the struct s's fields, in field
// order.
func SettingNames(s any) []string {
	t := reflect.TypeOf(s)
	var names []string
	for i := range t.NumField() {
		if name := t.Field(i).Tag.Get("setting"); name != "" {
			names = append(names, name)
		}
	}
	return names
}
